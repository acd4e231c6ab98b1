"""Random programs (docs/testing.md, "Program differential"): whole kernels with typed scalar
variables, `if`/`for range`/`while`/`break`, per-thread local arrays, block-shared arrays
exchanged between barriers, integer atomics and device-function calls. A program is its
variables (slots), arrays, device functions and statement tree; `program_source` prints it as
a kaji kernel that stores every variable and local-array element of every thread to the
outputs.

Expressions are the scalar tester's trees (expressions.py) over the program's slots, plus two
nodes of their own: `load` (value: the array's name; children: the index expression) and
`dcall` (value: a device function's index and its parameters' kinds; children: the
arguments)."""

from dataclasses import dataclass, field

from .expressions import source
from .kernels import OUTPUTS, output_of

BLOCK = 32  # threads per block, a power of two: shared indices are masked with BLOCK - 1
BLOCKS = 2
THREAD_INDEX = "i"  # the kernel's global thread index; `s` is the index in the block


@dataclass
class Slot:
    """A scalar the program reads: an input element (`v3[i]`), a variable or a loop counter."""
    name: str
    kind: str


@dataclass
class Array:
    """A local (per thread), shared (per block) or global accumulator array of `size`
    elements (a power of two), element kind `kind`. An accumulator is updated by one atomic
    operation only: two (`add` then `xor`) give a result that depends on the threads' order."""
    name: str
    space: str
    kind: str
    size: int
    atomic: str = ""


@dataclass
class Assign:
    slot: int
    expr: object
    cast: bool  # printed as `t = np.KIND(expr)`: the variable keeps one type


@dataclass
class Rebind(Assign):
    """`t = np.KIND(expr)` at the kernel's top level, binding the name of a variable to a new
    slot of another kind: every later read sees the new one, as a Python name is rebound."""


@dataclass
class AugAssign:
    slot: int
    op: str
    expr: object


@dataclass
class If:
    test: object
    body: list
    orelse: list


@dataclass
class ForRange:
    """`for j in range(np.int64(count) & 3)`: zero to three trips, per thread."""
    slot: int
    count: object
    body: list


@dataclass
class While:
    """`w = 0; while w < trips: w += 1; body` with a `break` somewhere in it, mostly."""
    slot: int
    trips: int
    body: list


@dataclass
class Break:
    test: object


@dataclass
class Store:
    """`a[np.int64(index) & (size - 1)] = np.KIND(expr)` into a local array."""
    array: str
    index: object
    expr: object


@dataclass
class SharedExchange:
    """At the kernel's top level: every thread stores a value into the block's shared array at
    its own index, a barrier, each reads its neighbour `offset` along into a variable, a
    barrier."""
    array: str
    expr: object
    slot: int
    offset: int


@dataclass
class Atomic:
    """`cuda.atomic.OP(acc, np.int64(index) & (size - 1), np.KIND(expr))`; the old value is
    unused (its order is not deterministic, the final array is)."""
    op: str
    array: str
    index: object
    expr: object


@dataclass
class DeviceFunction:
    """`def d<n>(p0, p1)`: r = np.KIND(expr); if test: r = np.KIND(expr2); return r. `params`
    are slot kinds; the expressions' var nodes index the params."""
    params: tuple
    kind: str
    expr: object
    test: object
    second: object
    product: bool  # its result may be a float product (program_generator.py)


@dataclass
class Program:
    inputs: int  # slots [0, inputs) are the input columns, read as v<j>[i]
    slots: list
    arrays: list
    functions: list
    body: list
    results: list = field(default_factory=list)  # slots stored to the outputs
    initial: int = 0  # the body's first statements: each variable's first assignment

    def array(self, name):
        return next(a for a in self.arrays if a.name == name)


def index_source(text, size):
    return f"np.int64({text}) & {size - 1}"


def expression_source(node, names, sizes=None):
    """Python source of an expression over `names` (slot index -> spelling); `sizes` gives each
    loaded array's size. A call's arguments are cast to its parameters' kinds, so a device
    function is specialised for one signature."""
    def column_name(j):
        return names[j]

    def spell(n):
        if n.op == "load":
            index = expression_source(n.children[0], names, sizes)
            return f"{n.value}[{index_source(index, sizes[n.value])}]"
        if n.op == "dcall":
            function, kinds = n.value
            args = ", ".join(f"np.{kind}({expression_source(c, names, sizes)})"
                             for kind, c in zip(kinds, n.children))
            return f"d{function}({args})"
        return None

    return source(node, column_name, spell)


def _function_lines(index, function):
    names = [f"p{k}" for k in range(len(function.params))]
    kind = function.kind
    lines = ["@kaji.jit(device=True)", f"def d{index}({', '.join(names)}):",
             f"    r = np.{kind}({expression_source(function.expr, names)})"]
    if function.test is not None:
        lines += [f"    if {expression_source(function.test, names)}:",
                  f"        r = np.{kind}({expression_source(function.second, names)})"]
    return lines + ["    return r", ""]


def _statement_lines(statement, program, names):
    def expr(node):
        return expression_source(node, names, {a.name: a.size for a in program.arrays})

    def block(statements):
        lines = []
        for inner in statements:
            lines += ["    " + line for line in _statement_lines(inner, program, names)]
        return lines or ["    pass"]

    if isinstance(statement, Assign):
        slot = program.slots[statement.slot]
        value = f"np.{slot.kind}({expr(statement.expr)})" if statement.cast else expr(
            statement.expr)
        return [f"{slot.name} = {value}"]
    if isinstance(statement, AugAssign):
        return [f"{program.slots[statement.slot].name} {statement.op}= {expr(statement.expr)}"]
    if isinstance(statement, If):
        lines = [f"if {expr(statement.test)}:"] + block(statement.body)
        if statement.orelse:
            lines += ["else:"] + block(statement.orelse)
        return lines
    if isinstance(statement, ForRange):
        return [f"for {program.slots[statement.slot].name} in "
                f"range(np.int64({expr(statement.count)}) & 3):"] + block(statement.body)
    if isinstance(statement, While):
        counter = program.slots[statement.slot].name
        return [f"{counter} = np.int64(0)", f"while {counter} < {statement.trips}:",
                f"    {counter} += 1"] + block(statement.body)
    if isinstance(statement, Break):
        return [f"if {expr(statement.test)}:", "    break"]
    if isinstance(statement, Store):
        array = program.array(statement.array)
        return [f"{array.name}[{index_source(expr(statement.index), array.size)}] = "
                f"np.{array.kind}({expr(statement.expr)})"]
    if isinstance(statement, SharedExchange):
        array = program.array(statement.array)
        slot = program.slots[statement.slot]
        return [f"{array.name}[s] = np.{array.kind}({expr(statement.expr)})",
                "cuda.syncthreads()",
                f"{slot.name} = np.{slot.kind}({array.name}[(s + {statement.offset}) & "
                f"{BLOCK - 1}])",
                "cuda.syncthreads()"]
    array = program.array(statement.array)
    return [f"cuda.atomic.{statement.op}({array.name}, "
            f"{index_source(expr(statement.index), array.size)}, "
            f"np.{array.kind}({expr(statement.expr)}))"]


def result_layout(program):
    """Where each result lands: (output, row) per stored variable, then per local-array
    element, in that order, and the number of rows of each output."""
    rows = {output: 0 for output in OUTPUTS}
    placement = []
    kinds = [program.slots[j].kind for j in program.results]
    kinds += [a.kind for a in program.arrays if a.space == "local" for _ in range(a.size)]
    for kind in kinds:
        output = output_of(kind)
        placement.append((output, rows[output]))
        rows[output] += 1
    return placement, rows


def program_source(program, name="program"):
    """The kernel `name(oi, ou, of, acc..., v0, ...)` and the device functions it calls."""
    names = [slot.name for slot in program.slots]
    lines = []
    for index, function in enumerate(program.functions):
        lines += _function_lines(index, function)
    accumulators = [a.name for a in program.arrays if a.space == "global"]
    params = list(OUTPUTS) + accumulators + [f"v{j}" for j in range(program.inputs)]
    lines += [f"def {name}({', '.join(params)}):", f"    {THREAD_INDEX} = cuda.grid(1)",
              "    s = cuda.threadIdx.x"]
    for array in program.arrays:
        if array.space != "global":
            lines.append(f"    {array.name} = cuda.{array.space}.array({array.size}, "
                         f"np.{array.kind})")
    for array in program.arrays:
        if array.space == "local":
            lines += [f"    for z in range({array.size}):", f"        {array.name}[z] = 0"]
    for statement in program.body:
        lines += ["    " + line for line in _statement_lines(statement, program, names)]
    placement, _ = result_layout(program)
    stores = [program.slots[j].name for j in program.results]
    stores += [f"{a.name}[{k}]" for a in program.arrays if a.space == "local"
               for k in range(a.size)]
    for (output, row), value in zip(placement, stores):
        lines.append(f"    {output}[{row}, {THREAD_INDEX}] = {value}")
    return "import math\nimport numpy as np\nimport kaji\nfrom kaji import cuda\n\n" + \
        "\n".join(lines) + "\n"
