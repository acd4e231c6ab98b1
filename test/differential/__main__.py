"""python3 test/differential [--seed N] [--count N] [--seconds S] [--targets cpu,cuda]"""

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

from differential.campaign import Campaign  # noqa: E402


def main():
    parser = argparse.ArgumentParser(prog="python3 test/differential",
                                     description="Differential test of kaji's scalar semantics "
                                                 "against a numpy/Python reference.")
    parser.add_argument("--seed", type=int, default=None, help="default: a new random seed")
    parser.add_argument("--count", type=int, default=5000, help="expressions (default 5000)")
    parser.add_argument("--targets", default="cpu", help="comma-separated: cpu,cuda")
    parser.add_argument("--seconds", type=float, default=None,
                        help="stop starting batches after this long")
    parser.add_argument("--max-reported", type=int, default=25)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    targets = [t.strip() for t in args.targets.split(",") if t.strip()]
    print(f"seed {seed}, targets {','.join(targets)}", flush=True)
    summary = Campaign(seed, targets).run(args.count, args.max_reported, args.seconds)
    print(f"expressions {summary.expressions}, executions {summary.executions} (rows compared, "
          f"all targets), expected CompileErrors {summary.expected_errors}, unchecked rows "
          f"{summary.unchecked_rows}, mismatches {len(summary.mismatches)}, "
          f"{summary.seconds:.1f} s")
    return 1 if summary.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
