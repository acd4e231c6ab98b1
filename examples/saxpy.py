# out = a * x + y over float32 vectors, one element per thread.
import kaji


@kaji.jit("void(float32[:], float32, float32[:], float32[:])")
def saxpy(out, a, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]
