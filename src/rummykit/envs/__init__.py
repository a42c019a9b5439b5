"""Learning environments for both games: PettingZoo AEC, Gymnasium, and trained policies
as bots (``docs/envs.md``).

- :mod:`~rummykit.envs.vatikanen_v0`, :mod:`~rummykit.envs.kontrakt_v0`: the PettingZoo
  AEC environments, ``env(**options)`` and ``raw_env`` (need the ``rl`` extra);
- :mod:`~rummykit.envs.single`: the single-agent Gymnasium environment against
  rummykit's bots (``gym_env()`` of either module);
- :mod:`~rummykit.envs.vatikanen_encoding`, :mod:`~rummykit.envs.kontrakt_encoding`:
  the fixed action sets and the observations, built from one seat's view alone;
- :mod:`~rummykit.envs.core`: the game, masks and rewards both environments share;
- :mod:`~rummykit.envs.policy`: a saved policy (numpy) and the ``policy`` bot that
  plays it in the arena.

Nothing is imported here, so that the ``policy`` bot loads without PettingZoo::

    from rummykit.envs import vatikanen_v0
    env = vatikanen_v0.env(players=3)
"""
