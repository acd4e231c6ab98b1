"""The differential test through records and tuples (docs/language.md, "Records" and
"Tuples"): the scalar tester's items (generator.py) over input columns that the kernel reads
as fields of a structured array (`rec[i].f3`, `rec[i]['f3']`, `r.f3` after `r = rec[i]`), as
elements of a tuple argument (`targ[2]`, the same value on every row), or as elements of a
local tuple built from plain arrays (`loc[1]`, or `u4` after `u3, u4 = loc`); every result is
stored into a field of a structured output array (`res[i].r0 = ...`, `res[i]['r1'] = ...`),
widened as the scalar tester's outputs are. Each batch draws its own layout: which columns go
where, the spellings, and a record dtype with `align=True` or packed with its fields by
decreasing size and padded to a multiple of the largest (a misaligned packed field is a
documented CompileError). The reference is
the scalar tester's (reference.py) over the same values, so a field or element read as the
wrong type or from the wrong place, or a result stored wrongly, shows as a mismatch."""

from dataclasses import dataclass, field

import numpy as np

from . import kernels
from .campaign import (Batches, _value_source, cpython_decides_a_condition, expected_rows,
                       paths_differ, tolerance)
from .comparison import differing_rows
from .expressions import item_lines
from .generator import Generator
from .reference import Evaluator, run_item
from .scalars import draw_column

COLUMN_KINDS = ("bool", "int8", "uint8", "int16", "int32", "uint32", "int64", "uint64",
                "float16", "float32", "float64")
PLACES = ("record", "record", "tuple argument", "local tuple")


@dataclass
class Layout:
    """Where each column lives and how the kernel spells it."""
    places: list
    spellings: dict
    record: np.dtype
    argument_columns: list  # in the tuple argument's order
    local_columns: list  # in the local tuple's order
    prologue: list = field(default_factory=list)


def draw_layout(rng):
    places = [PLACES[int(rng.integers(len(PLACES)))] for _ in COLUMN_KINDS]
    places[0] = "record"  # the record array's size bounds the threads
    record_columns = [j for j, p in enumerate(places) if p == "record"]
    fields = [(f"f{j}", COLUMN_KINDS[j]) for j in record_columns]
    if rng.random() < 0.5:
        record = np.dtype(fields, align=True)
    else:
        # Packed, each field at a multiple of its size, and elements a multiple of the
        # largest apart (else a field is misaligned in some element: a CompileError).
        packed = np.dtype(sorted(fields, key=lambda f: -np.dtype(f[1]).itemsize))
        largest = max(np.dtype(kind).itemsize for _, kind in fields)
        record = np.dtype({"names": list(packed.names),
                           "formats": [packed.fields[n][0] for n in packed.names],
                           "offsets": [packed.fields[n][1] for n in packed.names],
                           "itemsize": -(-packed.itemsize // largest) * largest})
    argument_columns = [j for j, p in enumerate(places) if p == "tuple argument"]
    local_columns = [j for j, p in enumerate(places) if p == "local tuple"]
    spellings = {}
    for j in record_columns:
        spellings[j] = (f"rec[i].f{j}", f"rec[i]['f{j}']", f"r.f{j}")[int(rng.integers(3))]
    for position, j in enumerate(argument_columns):
        spellings[j] = f"targ[{position}]"
    for position, j in enumerate(local_columns):
        spellings[j] = f"loc[{position}]" if rng.random() < 0.5 else f"u{j}"
    prologue = ["r = rec[i]"]
    if local_columns:
        prologue.append(f"loc = ({''.join(f'v{j}[i], ' for j in local_columns)})")
        prologue.append(f"{''.join(f'u{j}, ' for j in local_columns)}= loc")
    return Layout(places, spellings, record, argument_columns, local_columns, prologue)


def kernel_source(items, layout):
    params = ["res", "rec", "targ"] + [f"v{j}" for j in layout.local_columns]
    lines = [f"def aggtest({', '.join(params)}):", "    i = kaji.grid(1)",
             "    if i < rec.size:"]
    lines += ["        " + line for line in layout.prologue]
    for k, item in enumerate(items):
        target = f"res[i].r{k}" if k % 2 else f"res[i]['r{k}']"
        lines += ["        " + line for line in item_lines(item, target, f"t{k}",
                                                             layout.spellings.__getitem__)]
    return kernels.PRELUDE + "\n".join(lines) + "\n"


def arguments(layout, inputs, result_kinds):
    """(res, rec, targ, local columns...) for the kernel; the tuple argument's columns hold
    one value on every row."""
    rows = len(inputs[0])
    record = np.zeros(rows, dtype=layout.record)
    for name in layout.record.names:
        record[name] = inputs[int(name[1:])]
    argument = tuple(inputs[j][0] for j in layout.argument_columns)
    result = np.zeros(rows, dtype=[(f"r{k}", kernels.output_dtype(kernels.output_of(kind)))
                                  for k, kind in enumerate(result_kinds)])
    return result, record, argument, [inputs[j] for j in layout.local_columns]


def run(items, result_kinds, layout, inputs, target):
    import kaji

    text = kernel_source(items, layout)
    kernel = kaji.jit(kernels.load(text, "aggtest", kernels.from_bytecode(target)),
                      target=kernels.device_target(target), boundscheck=False)
    result, record, argument, locals_ = arguments(layout, inputs, result_kinds)
    rows = len(record)
    threads = min(rows, 128)
    kernel[(rows + threads - 1) // threads, threads](result, record, argument, *locals_)
    return [result[f"r{k}"] for k in range(len(items))]


@dataclass
class Summary:
    expressions: int = 0
    executions: int = 0
    mismatches: list = field(default_factory=list)
    seconds: float = 0.0


class AggregateCampaign(Batches):
    def __init__(self, seed, targets, rows=64, batch=24, log=print):
        super().__init__(seed, targets, rows, batch, log, Summary())

    def _batch(self, size):
        layout = draw_layout(self.rng)
        inputs = [draw_column(kind, self.rows, self.rng) for kind in COLUMN_KINDS]
        for j in layout.argument_columns:
            inputs[j] = np.full(self.rows, inputs[j][int(self.rng.integers(self.rows))])
        generator = Generator(self.rng, list(COLUMN_KINDS))
        items = []
        while len(items) < size:
            item, expects_error = generator.item()
            if not expects_error:  # the scalar tester checks those
                items.append(item)
        self.summary.expressions += size
        reference = Evaluator(inputs)
        expected = [run_item(reference, item) for item in items]
        kinds = [value.type.kind for value in expected]
        results = {}
        for target in self.targets:
            try:
                results[target] = run(items, kinds, layout, inputs, target)
            except Exception as error:  # every failure of kaji is a finding
                self._report(f"[{target}] {type(error).__name__}: {error}", items, kinds,
                             layout, inputs, 0)
        for k, (item, value) in enumerate(zip(items, expected)):
            for target, got in results.items():
                if kernels.from_bytecode(target) and cpython_decides_a_condition(item):
                    continue  # the reference follows the source rule (campaign.py)
                want, unchecked, alternatives = expected_rows(value, target)
                bad = differing_rows(got[k], want, unchecked, value.type.kind,
                                     tolerance(item, value.type.kind, target), alternatives)
                self.summary.executions += int((~unchecked).sum())
                if bad.size:
                    row = int(bad[0])
                    self._report(f"[{target}] item {k} ({value.type.kind}): {bad.size} rows "
                                 f"differ; row {row}: got {_value_source(got[k][row])}, "
                                 f"expected {_value_source(want[row])}", items, kinds, layout,
                                 inputs, row)
                twin = kernels.bytecode_twin(target)
                if twin in results and not cpython_decides_a_condition(item):
                    differ = paths_differ(got[k], results[twin][k])
                    if differ.size:
                        row = int(differ[0])
                        self._report(f"[{twin}] item {k}: from source "
                                     f"{_value_source(got[k][row])}, from bytecode "
                                     f"{_value_source(results[twin][k][row])}", items, kinds,
                                     layout, inputs, row)

    def _report(self, what, items, kinds, layout, inputs, row):
        """The batch kernel as a standalone script over the failing row alone."""
        one = [column[row:row + 1] for column in inputs]
        result, record, argument, locals_ = arguments(layout, one, kinds)
        lines = [kernel_source(items, layout).replace(
            "def aggtest(", "@kaji.jit(target='cpu')\ndef aggtest(")]
        fields = layout.record.fields
        spec = {"names": list(layout.record.names),
                "formats": [fields[name][0].name for name in layout.record.names],
                "offsets": [fields[name][1] for name in layout.record.names],
                "itemsize": layout.record.itemsize}
        lines.append(f"rec = np.zeros(1, dtype=np.dtype({spec!r}))")
        lines += [f"rec[{name!r}] = {_value_source(record[name][0])}"
                  for name in layout.record.names]
        lines.append("targ = (" + "".join(f"np.{type(v).__name__}({_value_source(v)}), "
                                           for v in argument) + ")")
        for j, column in zip(layout.local_columns, locals_):
            lines.append(f"v{j} = np.array([{_value_source(column[0])}], "
                         f"dtype=np.{column.dtype.name})")
        lines.append(f"res = np.zeros(1, dtype={[(n, result.dtype[n].name) for n in result.dtype.names]!r})")
        lines.append(f"aggtest[1, 1](res, rec, targ"
                     f"{''.join(f', v{j}' for j in layout.local_columns)})")
        lines.append("print(res)")
        text = "\n".join(lines)
        self.summary.mismatches.append((what, text))
        self.log(f"MISMATCH {what}\n{text}\n")
