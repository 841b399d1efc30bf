"""``segments()`` and ``breakpoints`` of every protocol."""

from __future__ import annotations

import numpy as np
import pytest

from frictionlab.fit.data import RecordedInput
from frictionlab.core.errors import ParameterError
from frictionlab.protocols import (ConstantVelocity, ForceRamp, NormalLoadProgramme, PulsatingThreshold,
                                   RampedNormalLoad, SlideHoldSlide, Sinusoidal, VelocitySteps)
from frictionlab.protocols.base import _PROTOCOLS, SEGMENT_KINDS, Segment
from frictionlab.protocols.reference import PositionRamp, PositionSinusoid, PositionSteps


def _summary(p):
    return [(s.t_start, s.t_end, s.kind, s.velocity, s.normal_force) for s in p.segments()]


def test_constant_velocity():
    assert _summary(ConstantVelocity(v=2e-6, duration_s=3.0, normal_force_value=5.0)) == [(0.0, 3.0, "slide", 2e-6, 5.0)]
    assert _summary(ConstantVelocity(v=0.0, duration_s=3.0))[0][2] == "hold"
    assert ConstantVelocity().breakpoints == ()


def test_velocity_steps_by_duration_and_distance():
    p = VelocitySteps(velocities=(1e-6, 1e-5, 0.0), durations=(2.0, 3.0, 4.0), normal_force_value=2.0)
    assert _summary(p) == [(0.0, 2.0, "slide", 1e-6, 2.0), (2.0, 5.0, "slide", 1e-5, 2.0), (5.0, 9.0, "hold", 0.0, 2.0)]
    assert p.breakpoints == (2.0, 5.0)
    q = VelocitySteps(velocities=(1e-6, 1e-6, 2e-6), distances=(1e-6, 2e-6, 2e-6))
    assert [s.t_end for s in q.segments()] == pytest.approx([1.0, 3.0, 4.0])
    assert q.breakpoints == pytest.approx((3.0,))  # equal velocities on both sides: no jump


def test_slide_hold_slide_with_creep_hold():
    p = SlideHoldSlide(v=1e-5, slide_duration=2.0, holds=(1.0, 5.0), hold_velocity=1e-8, normal_force_value=3.0)
    assert _summary(p) == [(0.0, 2.0, "slide", 1e-5, 3.0), (2.0, 3.0, "hold", 1e-8, 3.0), (3.0, 5.0, "slide", 1e-5, 3.0),
                           (5.0, 10.0, "hold", 1e-8, 3.0), (10.0, 12.0, "slide", 1e-5, 3.0)]
    assert p.breakpoints == (2.0, 3.0, 5.0, 10.0)
    assert [(s.t_start, s.t_end) for s in p.segments() if s.kind == "hold"] == p.hold_windows


def test_cyclic_protocols():
    assert _summary(Sinusoidal(frequency=2.0, cycles=3.0, normal_force_value=4.0)) == [(0.0, 1.5, "cyclic", None, 4.0)]
    assert _summary(PulsatingThreshold(max_duration=7.0)) == [(0.0, 7.0, "cyclic", None, 1.0)]
    assert Sinusoidal().breakpoints == ()


def test_normal_load_programme_is_continuous():
    p = NormalLoadProgramme(times=(1.0, 2.0, 3.0, 5.0), loads=(1.0, 4.0, 4.0, 2.0), v=1e-6)
    assert _summary(p) == [(0.0, 1.0, "slide", 1e-6, 1.0), (1.0, 2.0, "load", 1e-6, None),
                           (2.0, 3.0, "slide", 1e-6, 4.0), (3.0, 5.0, "load", 1e-6, None)]
    assert p.breakpoints == ()  # kinks, no jumps


def test_ramped_normal_load_hold_and_cycles():
    hold = RampedNormalLoad(preload=0.5, mean=2.0, ramp=0.01, duration_s=3.0, v=1e-6)
    assert _summary(hold) == [(0.0, 0.01, "load", 1e-6, None), (0.01, 3.0, "slide", 1e-6, 2.0)]
    np.testing.assert_allclose(hold.normal_force([0.0, 0.005, 0.01, 2.0]), [0.5, 1.25, 2.0, 2.0], rtol=1e-15)
    cyc = RampedNormalLoad(mean=10.0, amplitude=5.0, period=0.2, ramp=1e-3, duration_s=0.5)
    segs = cyc.segments()  # one piece per period, the last one shorter
    assert [s.kind for s in segs] == ["load", "cyclic", "cyclic", "cyclic"]
    assert [s.t_end for s in segs] == pytest.approx([1e-3, 0.201, 0.401, 0.5])
    t = np.array([1e-3, 1e-3 + 0.05, 1e-3 + 0.15, 0.4])
    np.testing.assert_allclose(cyc.normal_force(t), [10.0, 15.0, 5.0, 10.0 + 5.0 * np.sin(2 * np.pi * 1.995)],
                               rtol=1e-12)
    assert cyc.features == {"load_change"} and cyc.breakpoints == ()
    assert RampedNormalLoad(preload=3.0, mean=3.0, duration_s=2.0).features == set()
    with pytest.raises(ParameterError, match="tension"):
        RampedNormalLoad(mean=1.0, amplitude=2.0)
    with pytest.raises(ParameterError, match="ramp"):
        RampedNormalLoad(ramp=2.0, duration_s=1.0)


def test_force_ramp():
    assert _summary(ForceRamp(rate=2.0, duration_s=3.0)) == [(0.0, 3.0, "ramp", 0.0, 1.0)]
    assert ForceRamp(rate=0.0).segments()[0].kind == "hold"


def test_recorded_input_pieces_and_jump():
    p = RecordedInput(times=(10.0, 11.0, 12.0, 12.0 + 1e-12, 13.0), velocities=(1.0, 1.0, 1.0, 3.0, 3.0),
                      normal_forces=(2.0, 2.0, 5.0, 5.0, 5.0))
    kinds = [s.kind for s in p.segments()]
    assert kinds == ["slide", "load", "ramp", "slide"]
    assert p.segments()[0].t_start == 0.0 and p.segments()[-1].t_end == pytest.approx(3.0)


ALL = [PositionSinusoid(), PositionSteps(positions=(1.0, 2.0), times=(0.0, 4.0)),
       PositionRamp(t_start=0.5), PositionSinusoid(normal_force_end=3.0), ConstantVelocity(), VelocitySteps(durations=(1.0, 2.0, 3.0)), SlideHoldSlide(), Sinusoidal(),
       PulsatingThreshold(), NormalLoadProgramme(), ForceRamp(), RecordedInput(), RampedNormalLoad(),
       RampedNormalLoad(amplitude=0.5, period=0.3)]


def test_every_registered_protocol_is_covered():
    assert {type(p) for p in ALL} == set(_PROTOCOLS.values())


@pytest.mark.parametrize("p", ALL, ids=lambda p: p.type_name)
def test_segments_tile_the_run_and_match_the_channels(p):
    segs = p.segments()
    assert all(isinstance(s, Segment) and s.kind in SEGMENT_KINDS for s in segs)
    assert segs[0].t_start == 0.0
    assert segs[-1].t_end == pytest.approx(p.duration, rel=1e-12)
    assert all(a.t_end == b.t_start for a, b in zip(segs[:-1], segs[1:]))
    for s in segs:  # a declared constant value is what the channel gives inside the piece
        tt = np.linspace(s.t_start, s.t_end, 7)[1:-1]
        if s.velocity is not None:
            assert np.all(p.velocity(tt) == s.velocity)
        if s.normal_force is not None:
            assert np.all(p.normal_force(tt) == s.normal_force)
    for tb in p.breakpoints:  # a breakpoint is a real jump of a channel
        eps = 1e-6 * max(1.0, tb)
        left, right = p.sample(np.array([tb - eps, tb + eps]))[:2].T
        assert np.any(left != right)


def test_segment_validation():
    with pytest.raises(ValueError, match="kind"):
        Segment(0.0, 1.0, "slid", 1.0, 1.0)
    with pytest.raises(ValueError, match="t_end > t_start"):
        Segment(1.0, 1.0, "slide", 1.0, 1.0)


@pytest.mark.parametrize("protocol,features", [
    (ConstantVelocity(v=2e-6, duration_s=3.0, normal_force_value=5.0), set()),
    (VelocitySteps(velocities=(1e-6, 1e-5), durations=(1.0, 1.0)), {"velocity_change"}),
    (VelocitySteps(velocities=(1e-6, 1e-6), durations=(1.0, 1.0)), set()),  # two pieces, one velocity
    (SlideHoldSlide(holds=(1.0,)), {"velocity_change"}),
    (NormalLoadProgramme(times=(0.0, 1.0, 2.0), loads=(1.0, 2.0, 2.0), v=1e-6), {"load_change"}),
    (NormalLoadProgramme(times=(0.0, 1.0), loads=(3.0, 3.0), v=1e-6), set()),
    (Sinusoidal(), {"velocity_change"}),
    (ForceRamp(), set()),  # zero drive velocity at one load: its force channel is no feature
])
def test_features_follow_the_segments(protocol, features):
    assert protocol.features == features
