"""The compiled extension modules (everything else is in pyproject.toml).

Built when placesat is built or installed (``pip install .``, ``pip install -e .``, a wheel);
optional: without a C compiler the install still succeeds, and the kernels run as plain
Python (placesat.core.compiled.load_kernels says so on first use).
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

# bounds and negative indexes are not checked in the kernels (their Python twins are tested
# against them); C division: every division there is of numbers not negative
DIRECTIVES = {"boundscheck": False, "wraparound": False, "cdivision": True, "initializedcheck": False}

extensions = cythonize(
    [Extension("placesat.laido._sweep", ["solver/laido/_sweep.pyx"])],
    compiler_directives=DIRECTIVES,
    language_level=3,
)
for extension in extensions:
    extension.optional = True  # a failed compile is a warning (cythonize's Extensions drop the flag: set here)

setup(ext_modules=extensions)
