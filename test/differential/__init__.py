"""Differential testing of kaji's scalar semantics: random well-typed kernel expressions and
statements, run by kaji on each target and by a numpy/Python reference of the rules
docs/sema.md and docs/codegen.md state (see docs/testing.md, "Differential testing")."""
