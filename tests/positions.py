"""The position a state array holds, for tests that compare two states reached two ways."""
import numpy as np


def position(state: np.ndarray, layout) -> np.ndarray:
    """A copy of ``state`` with the options block's entries past the ``S_N_OPTIONS`` listed ones
    zeroed (``layout``: the game's layout module). Those entries are left over from earlier
    listings (a chance point lists six faces, a later decision fewer) and mean nothing, so two
    states of one position give equal copies."""
    s = state.copy()
    s[layout.S_OPTIONS + s[layout.S_N_OPTIONS]:layout.S_OPTIONS + layout.MAX_OPTS] = 0
    return s
