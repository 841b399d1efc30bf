"""Text a user may type after ``--set`` and ``--grid``: the inputs of the command-line fuzzers
(test_cli_fuzz_loaders.py: the parsers; test_cli_fuzz_commands.py: the commands)."""

from __future__ import annotations

from hypothesis import strategies as st

_KEYS = ["model.a", "model.b", "model.dc", "model.law", "model.name", "model.preset", "model", "protocol",
         "protocol.type", "protocol.velocities", "protocol.durations", "system.type", "integrator.dt",
         "integrator.method", "integrator.save_dt", "integrator.max_points", "integrator.rtol", "integrator.dt.x",
         "toy", "", ".", "model..a", "a.b.c.d"]
_PIECES = ["[", "]", "{", "}", "=", ",", ".", ":", "\"", "'", "#", "\n", " ", "0", "1", "-1", "1e400", "1e-400",
           "inf", "nan", "-inf", "true", "false", "log", "lin", "aging", "slip", "[/x]", "\x00", "\ufeff", "1979-05-27",
           "1" + "0" * 400, "[" * 40, "]" * 40, "0x1F", "1_000", "é", "\\", "lugre", "rsf", "mass", "rk4"]

text = st.lists(st.sampled_from(_PIECES) | st.text(max_size=4), max_size=12).map("".join)
value = st.one_of(text, st.floats(allow_nan=True).map(repr), st.integers().map(str),
                  st.lists(st.floats().map(repr) | text, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"))
setting = st.one_of(st.builds(lambda k, v: f"{k}={v}", st.sampled_from(_KEYS) | text, value), text)
grid_item = st.one_of(setting, st.builds(lambda k, a, b, n, s: f"{k}={a}:{b}:{n}{s}", st.sampled_from(_KEYS),
                                         value, value, st.integers(-3, 10 ** 13).map(str) | text,
                                         st.sampled_from(["", ":log", ":lin", ":x", ":log:1"])))

#: keys of the scenarios the command fuzzer drives, beside the parsers' keys
COMMAND_KEYS = [*_KEYS, "laws", "drive_velocities", "stiffness_ratios", "hold_times", "system.mass", "system.stiffness",
                "integrator.driver", "integrator.max_steps", "integrator.max_wall_time", "protocol.distances",
                "protocol.v", "protocol.duration_s", "model.v_init", "model.sigma0", "model.fc", "model.fs",
                "parallel.workers"]
#: values that often give a setting that builds, so that the run's own checks are reached
plausible = st.sampled_from(["1e-3", "0.5", "1", "10", "1e9", "1e10", "0", "-1", "1e308", "1e-300", "nan", "rk4",
                             "rk45", "radau", "euler", "aging", "[]", "[aging]", "[1e-6, 1e-5]", "[0.5, 2]", "true"])
command_setting = st.one_of(st.builds(lambda k, v: f"{k}={v}", st.sampled_from(COMMAND_KEYS), plausible | value),
                            setting)
#: numeric keys of those scenarios, and numbers: an axis that often validates
_NUMERIC_KEYS = ["model.a", "model.b", "model.dc", "model.fc", "model.sigma0", "system.mass", "system.stiffness",
                 "protocol.v", "integrator.dt", "drive_velocities", "stiffness_ratios"]
_NUMBERS = st.sampled_from(["1e-6", "1e-3", "0.005", "0.02", "0.5", "1", "10", "0", "-1", "1e308"])
command_grid = st.one_of(
    st.builds(lambda k, a, b, n, s: f"{k}={a}:{b}:{n}{s}", st.sampled_from(_NUMERIC_KEYS), _NUMBERS, _NUMBERS,
              st.sampled_from(["1", "2", "3"]), st.sampled_from(["", ":log"])),
    st.builds(lambda k, a, b, n, s: f"{k}={a}:{b}:{n}{s}", st.sampled_from(COMMAND_KEYS), plausible, plausible,
              st.sampled_from(["1", "2", "3", "0", "1e3", "100001", "10000000000000"]), st.sampled_from(["", ":log"])),
    st.builds(lambda k, vs: f"{k}=[{', '.join(vs)}]", st.sampled_from(COMMAND_KEYS), st.lists(plausible, max_size=3)),
    grid_item)
