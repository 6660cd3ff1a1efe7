"""The compiled kernels (pyproject.toml holds everything else): Cython modules that
``pip install`` builds from their sources beside the Python that defines them.

Each is optional: without a C compiler the install still succeeds and the kernels run as the
plain Python of their module (placesat.core.compiled.load_kernels says so once, when first
used, with the command that gets the compiled ones).
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

KERNELS = [
    Extension("placesat.lixso._grader", ["solver/lixso/_grader.pyx"]),
]

extensions = cythonize(KERNELS, quiet=True, build_dir="build")  # the C it writes: in build/, not in the package
for extension in extensions:
    extension.optional = True  # set after cythonize, whose copies of the extensions drop it
setup(ext_modules=extensions)
