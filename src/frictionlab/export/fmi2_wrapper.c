/* FMI 2.0 wrapper of one frictionlab rate law (model exchange and co-simulation).
 *
 * Written for frictionlab; compiled together with the law's generated source and
 * "fl_config.h" (frictionlab.export.fmu), which define:
 *   FL_NX, FL_NP, FL_GUID, FL_RATES, FL_FRICTION, FL_RK4 (the law's functions),
 *   fl_x_start[], fl_p_start[], fl_p_tunable[], fl_p_lo[], fl_p_hi[], fl_p_lo_open[],
 *   fl_p_hi_open[], fl_p_name[], FL_STEP_START.
 * Value references: 0 slip_velocity, 1 normal_force, 2 friction_force,
 *   3 .. 3+NX-1 the states, 3+NX .. 3+2NX-1 their derivatives,
 *   3+2NX .. 3+2NX+NP-1 the parameter vector (tunable entries only are declared),
 *   3+2NX+NP the co-simulation internal step [s].
 * Inputs are held constant over a co-simulation step, which is split into
 * ceil(h / internal step) equal classical RK4 steps.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmi2Functions.h"
#include "fl_config.h"

#define VR_V 0u
#define VR_FN 1u
#define VR_F 2u
#define VR_X0 3u
#define VR_DX0 (VR_X0 + FL_NX)
#define VR_P0 (VR_DX0 + FL_NX)
#define VR_STEP (VR_P0 + FL_NP)
#define NX_ALLOC (FL_NX > 0 ? FL_NX : 1)

enum { ST_INSTANTIATED, ST_INIT, ST_RUN, ST_TERMINATED, ST_ERROR };

typedef struct {
    double time;
    double u[2];
    double x[NX_ALLOC];
    double p[FL_NP];
    double step;
    int state;
    fmi2Type type;
    fmi2Boolean logging;
    const fmi2CallbackFunctions *cb;
    char name[128];
} Inst;

static void logmsg(Inst *c, fmi2Status status, const char *category, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    if (!c || !c->cb || !c->cb->logger) return;
    if (status == fmi2OK && !c->logging) return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    c->cb->logger(c->cb->componentEnvironment, c->name, status, category, "%s", buf);
}

static fmi2Status fail(Inst *c, const char *fmt, const char *what)
{
    logmsg(c, fmi2Error, "logStatusError", fmt, what);
    return fmi2Error;
}

/* ---- common ------------------------------------------------------------------------------ */
const char *fmi2GetTypesPlatform(void) { return fmi2TypesPlatform; }
const char *fmi2GetVersion(void) { return fmi2Version; }

fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean on, size_t n, const fmi2String cats[])
{
    (void)n; (void)cats;
    ((Inst *)c)->logging = on;
    return fmi2OK;
}

static void reset(Inst *c)
{
    int i;
    c->time = 0.0;
    c->u[0] = 0.0;
    c->u[1] = FL_FN_START;
    for (i = 0; i < FL_NX; i++) c->x[i] = fl_x_start[i];
    for (i = 0; i < FL_NP; i++) c->p[i] = fl_p_start[i];
    c->step = FL_STEP_START;
    c->state = ST_INSTANTIATED;
}

fmi2Component fmi2Instantiate(fmi2String name, fmi2Type type, fmi2String guid, fmi2String location,
                              const fmi2CallbackFunctions *cb, fmi2Boolean visible, fmi2Boolean logging)
{
    Inst *c;
    (void)location; (void)visible;
    if (!cb || !cb->logger) return NULL;
    if (!guid || strcmp(guid, FL_GUID) != 0) {
        cb->logger(cb->componentEnvironment, name, fmi2Error, "logStatusError",
                   "GUID %s does not match this binary's %s", guid ? guid : "(null)", FL_GUID);
        return NULL;
    }
    c = (Inst *)calloc(1, sizeof(Inst));
    if (!c) return NULL;
    c->cb = cb;
    c->type = type;
    c->logging = logging;
    snprintf(c->name, sizeof c->name, "%s", name ? name : "instance");
    reset(c);
    return c;
}

void fmi2FreeInstance(fmi2Component c) { free(c); }

fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean tolDefined, fmi2Real tol, fmi2Real start,
                               fmi2Boolean stopDefined, fmi2Real stop)
{
    (void)tolDefined; (void)tol; (void)stopDefined; (void)stop;
    ((Inst *)c)->time = start;
    return fmi2OK;
}

fmi2Status fmi2EnterInitializationMode(fmi2Component c)
{
    ((Inst *)c)->state = ST_INIT;
    return fmi2OK;
}

/* parameters out of their range are refused here, with the name and the range */
fmi2Status fmi2ExitInitializationMode(fmi2Component comp)
{
    Inst *c = (Inst *)comp;
    int i;
    for (i = 0; i < FL_NP; i++) {
        double v = c->p[i];
        int lo_bad = fl_p_lo_open[i] ? !(v > fl_p_lo[i]) : !(v >= fl_p_lo[i]);
        int hi_bad = fl_p_hi_open[i] ? !(v < fl_p_hi[i]) : !(v <= fl_p_hi[i]);
        if (!isfinite(v) || lo_bad || hi_bad) {
            logmsg(c, fmi2Error, "logStatusError", "parameter %s = %g is outside its allowed range %s",
                   fl_p_name[i], v, fl_p_range[i]);
            c->state = ST_ERROR;
            return fmi2Error;
        }
    }
    if (!(c->step > 0.0) || !isfinite(c->step)) {
        logmsg(c, fmi2Error, "logStatusError", "internal_step = %g s must be > 0", c->step);
        c->state = ST_ERROR;
        return fmi2Error;
    }
    c->state = ST_RUN;
    return fmi2OK;
}

fmi2Status fmi2Terminate(fmi2Component c)
{
    ((Inst *)c)->state = ST_TERMINATED;
    return fmi2OK;
}

fmi2Status fmi2Reset(fmi2Component c)
{
    reset((Inst *)c);
    return fmi2OK;
}

fmi2Status fmi2GetReal(fmi2Component comp, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[])
{
    Inst *c = (Inst *)comp;
    double dx[NX_ALLOC];
    int have_dx = 0;
    size_t i;
    for (i = 0; i < nvr; i++) {
        fmi2ValueReference r = vr[i];
        if (r == VR_V || r == VR_FN) value[i] = c->u[r];
        else if (r == VR_F) value[i] = FL_FRICTION(c->x, c->u[0], c->u[1], c->p);
        else if (r >= VR_X0 && r < VR_DX0) value[i] = c->x[r - VR_X0];
        else if (r >= VR_DX0 && r < VR_P0) {
            if (!have_dx) { FL_RATES(c->x, c->u[0], c->u[1], c->p, dx); have_dx = 1; }
            value[i] = dx[r - VR_DX0];
        }
        else if (r >= VR_P0 && r < VR_STEP) value[i] = c->p[r - VR_P0];
        else if (r == VR_STEP) value[i] = c->step;
        else {
            logmsg(c, fmi2Error, "logStatusError", "fmi2GetReal: unknown value reference %u", (unsigned)r);
            return fmi2Error;
        }
    }
    return fmi2OK;
}

fmi2Status fmi2SetReal(fmi2Component comp, const fmi2ValueReference vr[], size_t nvr, const fmi2Real value[])
{
    Inst *c = (Inst *)comp;
    int before_run = c->state == ST_INSTANTIATED || c->state == ST_INIT;
    size_t i;
    for (i = 0; i < nvr; i++) {
        fmi2ValueReference r = vr[i];
        if (r == VR_V || r == VR_FN) c->u[r] = value[i];
        else if (r >= VR_X0 && r < VR_DX0 && before_run) c->x[r - VR_X0] = value[i];
        else if (r >= VR_P0 && r < VR_STEP && before_run && fl_p_tunable[r - VR_P0]) c->p[r - VR_P0] = value[i];
        else if (r == VR_STEP && before_run) c->step = value[i];
        else {
            logmsg(c, fmi2Error, "logStatusError", "fmi2SetReal: value reference %u cannot be set now (an output, "
                   "an option fixed at export, or a parameter after initialization)", (unsigned)r);
            return fmi2Error;
        }
    }
    return fmi2OK;
}

#define NO_VALUES(fn, T)                                                                     \
    fmi2Status fn(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, T value[])    \
    {                                                                                        \
        (void)vr; (void)value;                                                               \
        return nvr == 0 ? fmi2OK : fail((Inst *)c, "%s: this FMU has no such variables", #fn); \
    }
NO_VALUES(fmi2GetInteger, fmi2Integer)
NO_VALUES(fmi2GetBoolean, fmi2Boolean)
NO_VALUES(fmi2GetString, fmi2String)
NO_VALUES(fmi2SetInteger, const fmi2Integer)
NO_VALUES(fmi2SetBoolean, const fmi2Boolean)
NO_VALUES(fmi2SetString, const fmi2String)

fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate *s)
{ (void)s; return fail((Inst *)c, "%s not supported", "fmi2GetFMUstate"); }
fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate s)
{ (void)s; return fail((Inst *)c, "%s not supported", "fmi2SetFMUstate"); }
fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate *s)
{ (void)s; return fail((Inst *)c, "%s not supported", "fmi2FreeFMUstate"); }
fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate s, size_t *n)
{ (void)s; (void)n; return fail((Inst *)c, "%s not supported", "fmi2SerializedFMUstateSize"); }
fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate s, fmi2Byte b[], size_t n)
{ (void)s; (void)b; (void)n; return fail((Inst *)c, "%s not supported", "fmi2SerializeFMUstate"); }
fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte b[], size_t n, fmi2FMUstate *s)
{ (void)s; (void)b; (void)n; return fail((Inst *)c, "%s not supported", "fmi2DeSerializeFMUstate"); }
fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference u[], size_t nu,
                                        const fmi2ValueReference z[], size_t nz, const fmi2Real dv[], fmi2Real dz[])
{
    (void)u; (void)nu; (void)z; (void)nz; (void)dv; (void)dz;
    return fail((Inst *)c, "%s not supported", "fmi2GetDirectionalDerivative");
}

/* ---- model exchange ---------------------------------------------------------------------- */
fmi2Status fmi2EnterEventMode(fmi2Component c) { (void)c; return fmi2OK; }

fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo *info)
{
    (void)c;
    info->newDiscreteStatesNeeded = fmi2False;
    info->terminateSimulation = fmi2False;
    info->nominalsOfContinuousStatesChanged = fmi2False;
    info->valuesOfContinuousStatesChanged = fmi2False;
    info->nextEventTimeDefined = fmi2False;
    info->nextEventTime = 0.0;
    return fmi2OK;
}

fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) { (void)c; return fmi2OK; }

fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean noSetFMUStatePriorToCurrentPoint,
                                       fmi2Boolean *enterEventMode, fmi2Boolean *terminateSimulation)
{
    (void)c; (void)noSetFMUStatePriorToCurrentPoint;
    *enterEventMode = fmi2False;
    *terminateSimulation = fmi2False;
    return fmi2OK;
}

fmi2Status fmi2SetTime(fmi2Component c, fmi2Real t)
{
    ((Inst *)c)->time = t;
    return fmi2OK;
}

fmi2Status fmi2SetContinuousStates(fmi2Component comp, const fmi2Real x[], size_t nx)
{
    Inst *c = (Inst *)comp;
    size_t i;
    if (nx != FL_NX) return fail(c, "%s: wrong number of states", "fmi2SetContinuousStates");
    for (i = 0; i < nx; i++) c->x[i] = x[i];
    return fmi2OK;
}

fmi2Status fmi2GetDerivatives(fmi2Component comp, fmi2Real dx[], size_t nx)
{
    Inst *c = (Inst *)comp;
    if (nx != FL_NX) return fail(c, "%s: wrong number of states", "fmi2GetDerivatives");
    if (nx) FL_RATES(c->x, c->u[0], c->u[1], c->p, dx);
    return fmi2OK;
}

fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real g[], size_t ni)
{
    (void)g;
    return ni == 0 ? fmi2OK : fail((Inst *)c, "%s: this FMU has no event indicators", "fmi2GetEventIndicators");
}

fmi2Status fmi2GetContinuousStates(fmi2Component comp, fmi2Real x[], size_t nx)
{
    Inst *c = (Inst *)comp;
    size_t i;
    if (nx != FL_NX) return fail(c, "%s: wrong number of states", "fmi2GetContinuousStates");
    for (i = 0; i < nx; i++) x[i] = c->x[i];
    return fmi2OK;
}

fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real x_nominal[], size_t nx)
{
    size_t i;
    (void)c;
    for (i = 0; i < nx; i++) x_nominal[i] = fl_x_nominal[i];
    return fmi2OK;
}

/* ---- co-simulation ------------------------------------------------------------------------ */
fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                       const fmi2Integer order[], const fmi2Real value[])
{
    (void)vr; (void)nvr; (void)order; (void)value;
    return fail((Inst *)c, "%s not supported (inputs are held over a step)", "fmi2SetRealInputDerivatives");
}

fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                        const fmi2Integer order[], fmi2Real value[])
{
    (void)vr; (void)nvr; (void)order; (void)value;
    return fail((Inst *)c, "%s not supported", "fmi2GetRealOutputDerivatives");
}

fmi2Status fmi2DoStep(fmi2Component comp, fmi2Real t, fmi2Real h, fmi2Boolean noSetFMUStatePriorToCurrentPoint)
{
    Inst *c = (Inst *)comp;
    long n, k;
    double sub;
    (void)noSetFMUStatePriorToCurrentPoint;
    if (c->state != ST_RUN) return fail(c, "fmi2DoStep called %s", "outside step mode");
    if (!(h >= 0.0)) return fail(c, "%s: negative communication step", "fmi2DoStep");
    n = (long)ceil(h / c->step - 1e-9);
    if (n < 1) n = 1;
    sub = h / (double)n;
    for (k = 0; k < n && FL_NX > 0; k++) {
        if (FL_RK4(c->x, c->u[0], c->u[1], c->p, sub)) {
            logmsg(c, fmi2Error, "logStatusError",
                   "the state became non-finite at t = %.9g s; reduce internal_step (now %g s)",
                   t + (double)k * sub, c->step);
            c->state = ST_ERROR;
            return fmi2Error;
        }
    }
    c->time = t + h;
    return fmi2OK;
}

fmi2Status fmi2CancelStep(fmi2Component c) { (void)c; return fmi2Error; }

fmi2Status fmi2GetStatus(fmi2Component c, const fmi2StatusKind s, fmi2Status *v)
{ (void)s; (void)v; return fail((Inst *)c, "%s not supported", "fmi2GetStatus"); }
fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind s, fmi2Real *v)
{
    if (s == fmi2LastSuccessfulTime) { *v = ((Inst *)c)->time; return fmi2OK; }
    return fail((Inst *)c, "%s: status kind not supported", "fmi2GetRealStatus");
}
fmi2Status fmi2GetIntegerStatus(fmi2Component c, const fmi2StatusKind s, fmi2Integer *v)
{ (void)s; (void)v; return fail((Inst *)c, "%s not supported", "fmi2GetIntegerStatus"); }
fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind s, fmi2Boolean *v)
{
    if (s == fmi2Terminated) { *v = fmi2False; return fmi2OK; }
    return fail((Inst *)c, "%s: status kind not supported", "fmi2GetBooleanStatus");
}
fmi2Status fmi2GetStringStatus(fmi2Component c, const fmi2StatusKind s, fmi2String *v)
{ (void)s; (void)v; return fail((Inst *)c, "%s not supported", "fmi2GetStringStatus"); }
