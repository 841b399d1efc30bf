"""Template: the compiled closed loop of :mod:`frictionlab.control.loop` (see there); free names
``advance``/``pforce`` (the plant stepper, template :mod:`.plant`) and ``estimate``/``propagate``
(an estimator of template :mod:`.model`, or the no-model pair of :mod:`frictionlab.control.loop`),
bound per specialisation by :func:`frictionlab.core.jitcache.specialise`."""

import numpy as np
from numba import njit

from frictionlab.control.kernels import quantise

# bound per specialisation by frictionlab.core.jitcache.specialise
advance = pforce = estimate = propagate = None


@njit(cache=True)
def loop(sp, lp, mp, XR, VR, AR, FNP, FNM, y0, z0, zm0, s0, P0, qdiag, idx, lo, dt, nsub, OUT, ZP, ZM):
    m, Ts, qx, qv, vdiff, umax = sp[0], sp[1], sp[2], sp[3], sp[4], sp[5]
    kp, ki, kv, mm, aff, mode = sp[6], sp[7], sp[8], sp[9], sp[10], int(sp[11])
    kobs, feed, bw, apply = sp[12], sp[13], sp[14], sp[15]
    rx, rv, use_v, fsp, fsm, nest = sp[16], sp[17], sp[18] > 0.5, sp[19], sp[20], int(sp[21])
    inv_m = 1.0 / m
    inv_mm = 1.0 / mm
    y = y0.copy()
    z = z0.copy()
    zm = zm0.copy()
    s = s0.copy()
    P = P0.copy()
    p = mp.copy()
    wp = np.empty((5, max(z.size, 1)))
    wm = np.empty((5, max(zm.size, 1)))
    integ = 0.0
    xm_prev = quantise(y[0], qx)
    momentum = mm * y[1]
    nk = XR.size
    for k in range(nk):
        x, v = y[0], y[1]
        xm = quantise(x, qx)
        if vdiff > 0.5:
            vm = (xm - xm_prev) / Ts if k > 0 else quantise(v, qv)
        else:
            vm = quantise(v, qv)
        xm_prev = xm
        e = xm - XR[k]
        integ += Ts * e
        ufb = -(kp * e + ki * integ + kv * (vm - VR[k])) + aff * mm * AR[k]
        if mode == 4:
            fh = bw * (momentum - mm * vm)
        elif mode == 0:
            fh = 0.0
        else:
            fh = estimate(mode, zm, s, P, p, mp, xm, vm, e, VR[k], FNM[k], rx, rv, use_v, idx, fsm, kobs, feed)
        u = ufb + apply * fh
        if umax > 0.0:
            u = min(max(u, -umax), umax)
        OUT[k, 0] = x
        OUT[k, 1] = v
        OUT[k, 2] = xm
        OUT[k, 3] = vm
        OUT[k, 4] = u
        OUT[k, 5] = pforce(z, v, FNP[k], lp, fsp)
        OUT[k, 6] = fh
        OUT[k, 7] = x - XR[k]
        for j in range(z.size):
            ZP[k, j] = z[j]
        if mode == 3:
            for j in range(s.size - 2):
                ZM[k, j] = s[2 + j]
        else:
            for j in range(zm.size):
                ZM[k, j] = zm[j]
        if k == nk - 1:
            break
        ok = True
        if mode == 4:
            momentum += Ts * (u - fh)
        elif mode != 0:
            ok = propagate(mode, zm, s, P, p, mp, u, vm, kobs * e, VR[k], FNM[k], idx, inv_mm, fsm, Ts, nest,
                           qdiag, lo, wm)
        if not ok:
            return k + 1
        if not advance(y, z, u, FNP[k], lp, inv_m, fsp, dt, nsub, wp):
            return k + 1
    return -1
