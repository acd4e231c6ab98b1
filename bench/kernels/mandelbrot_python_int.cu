// mandelbrot.cu under the name of mandelbrot_python_int.py's kernel.
#define mandelbrot mandelbrot_python_int
#include "mandelbrot.cu"
