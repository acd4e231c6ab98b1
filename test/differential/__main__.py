"""python3 test/differential [--programs [--ptx] | --complex | --half | --records]
[--bytecode] [--seed N] [--count N] [--seconds S] [--targets cpu,cuda,cuda-nvrtc]"""

import argparse
import importlib.util
import pathlib
import secrets
import sys

if __package__ in (None, ""):
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
    if importlib.util.find_spec("kaji") is None:
        sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python"))
    __package__ = "differential"

from differential.aggregates import AggregateCampaign  # noqa: E402
from differential.campaign import Campaign  # noqa: E402
from differential.complex_expressions import ComplexCampaign  # noqa: E402
from differential.kernels import bytecode_twin  # noqa: E402
from differential.program_campaign import ProgramCampaign  # noqa: E402
from differential.scalars import HALF_PRECISION_KINDS  # noqa: E402


def main():
    parser = argparse.ArgumentParser(prog="python3 test/differential",
                                     description="Differential test of kaji's scalar semantics "
                                                 "against a numpy/Python reference.")
    parser.add_argument("--seed", type=int, default=None, help="default: a new random seed")
    parser.add_argument("--programs", action="store_true",
                        help="random programs (control flow, arrays, atomics, device "
                             "functions) instead of expressions")
    parser.add_argument("--complex", action="store_true",
                        help="complex expressions against numpy's scalar arithmetic")
    parser.add_argument("--half", action="store_true",
                        help="expressions over mostly float16 columns")
    parser.add_argument("--records", action="store_true",
                        help="expressions over record fields and tuple elements")
    parser.add_argument("--ptx", action="store_true",
                        help="with --programs: also compile each program through both GPU "
                             "backends to PTX and assemble it with ptxas (no GPU needed)")
    parser.add_argument("--first", type=int, default=0,
                        help="with --programs: the number of the first program (to rerun one)")
    parser.add_argument("--count", type=int, default=5000,
                        help="expressions or programs (default 5000)")
    parser.add_argument("--targets", default="cpu",
                        help="comma-separated: cpu,cuda (programs also cuda-nvrtc)")
    parser.add_argument("--bytecode", action="store_true",
                        help="also compile every kernel from its bytecode (exec()'d, no "
                             "source text) on each target and compare the two paths exactly")
    parser.add_argument("--seconds", type=float, default=None,
                        help="stop starting batches after this long")
    parser.add_argument("--max-reported", type=int, default=25)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    targets = [t.strip() for t in args.targets.split(",") if t.strip()]
    if args.bytecode:
        targets += [bytecode_twin(t) for t in targets]
    print(f"seed {seed}, targets {','.join(targets)}", flush=True)
    if args.programs:
        return run_programs(seed, targets, args)
    if args.complex or args.records:
        family = ComplexCampaign if args.complex else AggregateCampaign
        summary = family(seed, targets).run(args.count, args.seconds)
        print(f"expressions {summary.expressions}, mismatches {len(summary.mismatches)}, "
              f"{summary.seconds:.1f} s")
        return 1 if summary.mismatches else 0
    kinds = HALF_PRECISION_KINDS if args.half else None
    summary = Campaign(seed, targets, kinds=kinds).run(args.count, args.max_reported,
                                                       args.seconds)
    print(f"expressions {summary.expressions}, executions {summary.executions} (rows compared, "
          f"all targets), expected CompileErrors {summary.expected_errors}, unchecked rows "
          f"{summary.unchecked_rows}, mismatches {len(summary.mismatches)}, "
          + (f"items whose constant conditions CPython decided (paths not compared) "
             f"{summary.decided_by_cpython}, " if args.bytecode else "") +
          f"{summary.seconds:.1f} s")
    return 1 if summary.mismatches else 0


def run_programs(seed, targets, args):
    campaign = ProgramCampaign(seed, targets, ptx=args.ptx)
    summary = campaign.run(args.count, args.seconds, args.first)
    print(f"programs {summary.programs}, results compared {summary.results} (all targets), "
          f"tainted threads {summary.tainted}, PTX assembled {summary.assembled}, mismatches "
          f"{len(summary.mismatches)}, {summary.seconds:.1f} s")
    return 1 if summary.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
