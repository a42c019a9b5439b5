"""A trained policy saved as a small numpy file, and the ``policy`` bot that plays it.

A :class:`Policy` is a multilayer perceptron (tanh between layers, none
after the last) from the observation vector of one game's encoding to one
logit per action index. It is saved with :meth:`Policy.save` as a ``.npz``
file holding the weights, the game and the names of the encoding's actions,
so a file made for another encoding is refused when loaded.

The ``policy`` bot level (for both games) plays a saved policy as an
ordinary bot: it sees only its seat's view, builds the same observation as
the learning environment, takes the actions at each index from the view
(:meth:`~rummykit.envs.common.Encoder.propose`) and plays the legal index
of highest logit (``sample=true``: drawn from the masked softmax, by the
bot's seed)::

    rummykit simulate --game vatikanen --bots "policy(path=examples/vatikanen_policy.npz),random"

It needs numpy (the ``rl`` extra); registering the level does not.
"""

from __future__ import annotations

import functools
import os
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rummykit.bots.base import Setting, register
from rummykit.errors import MessageError
from rummykit.i18n import N_

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from rummykit.envs.common import Encoder
    from rummykit.game import AnyAction

    Array = npt.NDArray[np.float32]

__all__ = ["FORMAT", "KontraktPolicyBot", "Policy", "PolicyBot", "VatikanenPolicyBot"]

FORMAT = "rummykit-policy/1"
"""The format name a policy file carries."""


class Policy:
    """An MLP from one game's observation to its action logits (see the module docstring).

    ``layers`` are (weights, bias) pairs: weights of shape (out, in).
    """

    def __init__(self, game: str, layers: Sequence[tuple[Array, Array]]) -> None:
        import numpy as np

        from rummykit.envs.common import encoder_of

        self.game = game
        self.encoder: Encoder = encoder_of(game)
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        if not self.layers:
            raise ValueError("a policy has at least one layer")
        size, n = self.encoder.size, len(self.encoder.actions)
        if self.layers[0][0].shape[1] != size or self.layers[-1][0].shape[0] != n:
            raise ValueError(
                f"a {game} policy maps {size} observations to {n} actions, not"
                f" {self.layers[0][0].shape[1]} to {self.layers[-1][0].shape[0]}"
            )

    def logits(self, observation: Array) -> Array:
        """The logit of every action index."""
        import numpy as np

        x = observation
        for i, (w, b) in enumerate(self.layers):
            x = w @ x + b
            if i + 1 < len(self.layers):
                x = np.tanh(x)
        return x

    def best(
        self, observation: Array, legal: Sequence[int], rng: random.Random | None = None
    ) -> int:
        """The legal index of highest logit; with ``rng``, one drawn from the softmax over the
        legal indices."""
        import numpy as np

        if not legal:
            raise ValueError("no legal action to choose from")
        logits = self.logits(observation)[list(legal)]
        if rng is None:
            return int(legal[int(np.argmax(logits))])
        p = np.exp(logits - logits.max())
        return int(rng.choices(list(legal), weights=(p / p.sum()).tolist())[0])

    # ------------------------------------------------------------ files

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the policy as a compressed ``.npz`` file (float32 weights)."""
        import numpy as np

        arrays: dict[str, npt.NDArray[np.float32] | npt.NDArray[np.str_]] = {
            "format": np.array(FORMAT),
            "game": np.array(self.game),
            "actions": np.array(self.encoder.actions),
        }
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        with open(path, "wb") as f:
            np.savez_compressed(f, allow_pickle=False, **arrays)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Policy:
        """A policy from its file; ValueError if it is none, or made for another encoding."""
        return _load(str(Path(path).resolve()), os.stat(path).st_mtime_ns)


@functools.lru_cache(maxsize=8)
def _load(path: str, mtime: int) -> Policy:
    import numpy as np

    with np.load(path, allow_pickle=False) as data:
        if "format" not in data or str(data["format"]) != FORMAT:
            raise ValueError(f"{path} is not a {FORMAT} policy file")
        game = str(data["game"])
        layers: list[tuple[Array, Array]] = []
        while f"w{len(layers)}" in data:
            k = len(layers)
            layers.append((data[f"w{k}"], data[f"b{k}"]))
        actions = tuple(str(a) for a in data["actions"])
    policy = Policy(game, layers)
    if actions != policy.encoder.actions:
        raise ValueError(f"{path} was made for another {game} encoding: train it again")
    return policy


ABOUT = N_("plays a trained policy from its saved file: policy(path=FILE)")
"""How the policy level plays, in a few words (:func:`rummykit.bots.base.describe_level`)."""
LABEL = N_("trained policy")
"""The policy level's name for people (:func:`rummykit.bots.base.level_label`)."""


class PolicyBot:
    """Plays a saved :class:`Policy` from its seat's view (see the module docstring).

    ``path`` is the policy file; ``sample`` draws the action from the policy's
    softmax instead of taking the best one.
    """

    READS_LOG = False
    """It plays from the hand, the table and the counts; never the log."""

    level = "policy"
    game = ""
    SETTINGS: ClassVar[Mapping[str, Setting]] = {
        "path": Setting(str, N_("the saved policy's file"), high=4096, required=True),
        "sample": Setting(bool, N_("draw the action from the policy instead of its best")),
    }

    def __init__(self, seed: int | None = None, *, path: str | None = None, sample: bool = False):
        if path is None:
            raise MessageError(
                N_(
                    "the {game} policy bot plays a saved policy: give its file,"
                    " e.g. policy(path=examples/vatikanen_policy.npz)"
                ),
                game=self.game,
            )
        try:
            import numpy  # noqa: F401
        except ImportError:  # pragma: no cover - numpy is in the rl extra
            raise MessageError(N_("the policy bot needs numpy: install the rl extra")) from None
        try:
            self.policy = Policy.load(path)
        except OSError as exc:
            raise MessageError(
                N_("policy: the setting path names {path}, which cannot be read: {error}"),
                path=path,
                error=exc.strerror or str(exc),
            ) from None
        if self.policy.game != self.game:
            raise MessageError(
                N_("{path} is a {other} policy, not a {game} one"),
                path=path,
                other=self.policy.game,
                game=self.game,
            )
        self.rng = random.Random(seed) if sample else None

    def choose(self, view: Mapping[str, object]) -> AnyAction:
        """The policy's action for the seat's view."""
        encoder = self.policy.encoder
        actions = encoder.propose(view)
        observation = encoder.observe(view, actions)
        return actions[self.policy.best(observation, sorted(actions), self.rng)]


@register("vatikanen", "policy", ABOUT, LABEL)
class VatikanenPolicyBot(PolicyBot):
    """A saved Vatikanen policy as a bot."""

    game = "vatikanen"


@register("kontrakt", "policy", ABOUT, LABEL)
class KontraktPolicyBot(PolicyBot):
    """A saved Kontrakt policy as a bot."""

    game = "kontrakt"
