# lit configuration for kaji: runs the CLI tools on small inputs and FileChecks
# each compiler stage. Run through the build tree: `lit build/test/lit`.
import os

import lit.formats

config.name = "kaji"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".py", ".kir"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(config.kaji_tools_dir), "test", "lit")

config.substitutions.append(("%kaji-compile", os.path.join(config.kaji_tools_dir, "kaji-compile")))
config.substitutions.append(("%kaji-opt", os.path.join(config.kaji_tools_dir, "kaji-opt")))
config.substitutions.append(("%FileCheck", config.filecheck))
config.substitutions.append(("%not", config.not_tool))

# Every PTX a test produces is assembled for sm_90 where ptxas exists; %ptxas-for takes the
# architecture (--gpu-name sm_80) from the test.
if config.ptxas and not config.ptxas.endswith("-NOTFOUND"):
    config.substitutions.append(("%ptxas-for", config.ptxas + " -o /dev/null"))
    config.substitutions.append(("%ptxas", config.ptxas + " --gpu-name sm_90 -o /dev/null"))
    config.available_features.add("ptxas")
    # The toolkit's headers (cuda.h), beside its bin/.
    config.substitutions.append(
        ("%cuda-include", os.path.join(os.path.dirname(os.path.dirname(config.ptxas)), "include")))
else:
    config.substitutions.append(("%ptxas-for", "true"))
    config.substitutions.append(("%ptxas", "true"))

# The nvrtc backend's tests (test/lit/nvrtc) need NVRTC where kaji-compile looks for it.
def _nvrtc_present():
    import glob

    if os.environ.get("KAJI_NVRTC"):
        return os.path.exists(os.environ["KAJI_NVRTC"])
    roots = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"]
    return any(glob.glob(os.path.join(root, "lib64", "libnvrtc.so*")) for root in roots if root)


if _nvrtc_present():
    config.available_features.add("nvrtc")

# The tools must not depend on the caller's environment, except CUDA_HOME for libdevice and
# NVRTC, and KAJI_NVRTC.
for var in ("CUDA_HOME", "CUDA_PATH", "KAJI_NVRTC", "HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
