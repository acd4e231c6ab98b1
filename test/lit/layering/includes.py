# RUN: python3 %s %S/../../..
"""The layers include only what they may (docs/architecture.md, "What each layer never
includes"): every `#include "kaji/..."` of every C++ file of a layer names a layer on its list,
and no include climbs out of its folder with "..". The Python binding reaches the compiler only
through the driver: of the frontend and ir it includes only the data types the driver's API is
phrased in, and calls no frontend function. Fails naming each file and include that breaks a
rule."""

import pathlib
import re
import sys

CODEGEN = {"codegen", "codegen/llvm", "codegen/nvptx", "codegen/cpu", "codegen/nvrtc"}

# Folder of the sources → the layers their includes may name.
ALLOWED = {
    "ir/abi": {"abi"},
    "ir": {"ir", "abi"},
    "frontend": {"frontend", "ir", "abi"},
    "codegen/include": {"codegen", "ir", "abi"},
    "codegen/src": {"codegen", "ir", "abi"},
    # The lowering its two LLVM targets share; the targets and the NVRTC backend never include
    # one another.
    "codegen/llvm": {"codegen/llvm", "codegen", "ir", "abi"},
    "codegen/nvptx": {"codegen/nvptx", "codegen/llvm", "codegen", "ir", "abi"},
    "codegen/cpu": {"codegen/cpu", "codegen/llvm", "codegen", "ir", "abi"},
    "codegen/nvrtc": {"codegen/nvrtc", "codegen", "ir", "abi"},
    # The compile pipeline: the compiler's layers, never the runtime.
    "driver": {"driver", "frontend", "ir", "abi"} | CODEGEN,
    # Knows nothing of the compiler but the contracts in ir/abi.
    "runtime": {"runtime", "abi"},
    # The Python binding: the driver's API and the runtime, never a backend; of frontend and ir
    # only the headers of DATA_TYPES.
    "python/src": {"driver", "frontend", "ir", "abi", "runtime"},
    "tools": {"driver", "frontend", "ir", "abi", "runtime"},
}

# Folder → the headers of a layer it may include, where it may not include the whole layer: the
# data types the driver's API is phrased in (sources, code objects, signatures, the globals'
# environment; types, records, locations), none of the frontend's passes.
DATA_TYPES = {
    "python/src": {
        "frontend": {"Source.h", "Bytecode.h", "Signature.h", "Environment.h"},
        "ir": {"Type.h", "RecordType.h", "Location.h"},
    },
}

# A call of a frontend function (frontend::parseType(...)), which DATA_TYPES folders go
# through the driver for; a type's constructor (frontend::Signature{...}) is no call.
FRONTEND_CALL = re.compile(r"\bfrontend::[a-z]\w*\s*\(")

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def layer_of(include):
    """The layer `kaji/<layer>[/<backend>]/file.h` names, or None for a private header."""
    parts = include.split("/")
    if parts[0] != "kaji" or len(parts) < 3:
        return None
    if parts[1] == "codegen" and len(parts) > 3:
        return "codegen/" + parts[2]
    return parts[1]


def folder_of(path, root):
    relative = path.relative_to(root).as_posix()
    return max((f for f in ALLOWED if relative.startswith(f + "/")), key=len, default=None)


def violations(root):
    found = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".cpp", ".h", ".cuh", ".in") or "build" in path.parts:
            continue
        folder = folder_of(path, root)
        if folder is None:
            continue
        for include in INCLUDE.findall(path.read_text(errors="replace")):
            if ".." in include.split("/"):
                found.append(f"{path.relative_to(root)}: climbs out of its folder: {include}")
                continue
            layer = layer_of(include)
            if layer is not None and layer not in ALLOWED[folder]:
                found.append(f"{path.relative_to(root)}: {folder} may not include {include}")
            headers = DATA_TYPES.get(folder, {}).get(layer)
            if headers is not None and include.split("/")[-1] not in headers:
                found.append(f"{path.relative_to(root)}: {folder} may include only the data "
                             f"types of {layer}, not {include}")
        if folder in DATA_TYPES:
            for call in FRONTEND_CALL.findall(path.read_text(errors="replace")):
                found.append(f"{path.relative_to(root)}: calls {call.strip()}...) itself, "
                             "not through the driver")
    return found


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    if not (root / "ir").is_dir():
        sys.exit(f"{root} is not the repository root")
    found = violations(root)
    for line in found:
        print(line)
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
