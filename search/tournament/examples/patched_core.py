"""A `sitecustomize.py` that makes Python import one compiled core from another file.

The balance experiments (swap_card.py, ttg_seat_experiment.py) play a tournament on a modified copy of
a game's compiled engine, built in a temporary folder, without touching the working tree: the
tournament's processes run with that folder on PYTHONPATH, so this hook loads the copy in place of the
installed engine.
"""

SITECUSTOMIZE = """
import importlib.machinery, importlib.util, sys
class _PatchedCore:
    @staticmethod
    def find_spec(fullname, path=None, target=None):
        if fullname != {name!r}:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, {so!r})
        return importlib.util.spec_from_file_location(fullname, {so!r}, loader=loader)
sys.meta_path.insert(0, _PatchedCore)
"""


def sitecustomize(module: str, shared_object: str) -> str:
    """The hook's source: `module` (a dotted engine name) is loaded from `shared_object`."""
    return SITECUSTOMIZE.format(name=module, so=shared_object)
