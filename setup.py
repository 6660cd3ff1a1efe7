"""The compiled kernels (pyproject.toml holds everything else): Cython modules that
``pip install`` builds from their sources beside the Python that defines them.

Each is optional: without a C compiler the install still succeeds and the kernels run as the
plain Python of their module (placesat.core.compiled.load_kernels says so once, when first
used, with the command that gets the compiled ones).
"""

import os

from Cython.Build import cythonize
from setuptools import Extension, setup

# The Laido sweep: bounds and negative indexes are not checked (its Python twins are tested
# against it); C division: every division there is of numbers not negative. (The Lixso
# grader sets its own directives at the top of its source.)
SWEEP_DIRECTIVES = {"boundscheck": False, "wraparound": False, "cdivision": True, "initializedcheck": False}

extensions = [
    *cythonize([Extension("placesat.lixso._grader", ["solver/lixso/_grader.pyx"])],
               quiet=True, build_dir="build", language_level=3),
    *cythonize([Extension("placesat.laido._sweep", ["solver/laido/_sweep.pyx"])],
               quiet=True, build_dir="build", language_level=3, compiler_directives=SWEEP_DIRECTIVES),
]
for extension in extensions:
    extension.optional = True  # a failed compile is a warning; set after cythonize, whose copies drop the flag
# the modules compiled side by side, one a core: most of an install's time is the C compiler
setup(ext_modules=extensions, options={"build_ext": {"parallel": min(len(extensions), os.cpu_count() or 1)}})
