/*
 * Logic path (C99): facts, unit propagation with false-literal counters, cone search.
 * See logic.h for the idea and the data layout.
 *
 * Counters instead of watched literals: a state assigns most condition variables at
 * once, and every clause a falsified literal reaches is visited once per state.  The
 * touched clauses are remembered and only they are reset, so a state costs time in
 * proportion to the clauses it reaches, not to the knowledge base.
 */
#include "logic.h"

#include <stddef.h>

/* Value of a literal: 1 true, -1 false, 0 open. */
static int lit_value(const int8_t *value, int32_t lit)
{
    int v = value[lit > 0 ? lit : -lit];
    return lit > 0 ? v : -v;
}

/* A literal forced by a clause (never a fact). */
static void assign(const lg_db *db, lg_work *w, int32_t lit, int32_t reason)
{
    int32_t v = lit > 0 ? lit : -lit;
    w->value[v] = (int8_t)(lit > 0 ? 1 : -1);
    w->reason[v] = reason;
    w->trail[w->n_trail++] = v;
    if (lit > 0 && db->report[v]) {
        w->reported[w->n_reported++] = v;
    }
}

static int satisfied(const lg_db *db, const int8_t *value, int32_t c)
{
    int32_t k;
    for (k = db->start[c]; k < db->start[c + 1]; ++k) {
        if (lit_value(value, db->lits[k]) > 0) {
            return 1;
        }
    }
    return 0;
}

int lg_validate(const lg_db *db)
{
    int32_t i, n_lits, n_occ;
    if (db == NULL || db->n_vars < 0 || db->n_clauses < 0 || db->n_params < 0 ||
        db->n_units < 0 || db->n_nonhorn < 0 || db->n_cond < 0) {
        return LG_E_ARG;
    }
    if (db->start == NULL || db->occ_start == NULL ||
        (db->n_units && db->units == NULL) || (db->n_nonhorn && db->nonhorn == NULL) ||
        (db->n_cond && (db->cond_var == NULL || db->cond_axis == NULL ||
                        db->cond_row == NULL))) {
        return LG_E_ARG;
    }
    if (db->start[0] != 0) {
        return LG_E_INDEX;
    }
    for (i = 0; i < db->n_clauses; ++i) {
        if (db->start[i + 1] <= db->start[i]) {
            return LG_E_INDEX; /* empty clauses are refused by the loader */
        }
    }
    n_lits = db->start[db->n_clauses];
    if (n_lits && db->lits == NULL) {
        return LG_E_ARG;
    }
    for (i = 0; i < n_lits; ++i) {
        int32_t l = db->lits[i];
        if (l == 0 || l > db->n_vars || l < -db->n_vars) {
            return LG_E_INDEX;
        }
    }
    if (db->occ_start[0] != 0) {
        return LG_E_INDEX;
    }
    if (db->occ_mid == NULL) {
        return LG_E_ARG;
    }
    for (i = 0; i < 2 * db->n_vars + 2; ++i) {
        if (db->occ_start[i + 1] < db->occ_start[i] || db->occ_mid[i] < db->occ_start[i] ||
            db->occ_mid[i] > db->occ_start[i + 1]) {
            return LG_E_INDEX;
        }
    }
    n_occ = db->occ_start[2 * db->n_vars + 2];
    if (n_occ != n_lits || (n_occ && db->occ == NULL)) {
        return LG_E_INDEX;
    }
    for (i = 0; i < n_occ; ++i) {
        if (db->occ[i] < 0 || db->occ[i] >= db->n_clauses) {
            return LG_E_INDEX;
        }
    }
    for (i = 0; i < db->n_units; ++i) {
        int32_t c = db->units[i];
        if (c < 0 || c >= db->n_clauses || db->start[c + 1] - db->start[c] != 1) {
            return LG_E_INDEX;
        }
    }
    for (i = 0; i < db->n_nonhorn; ++i) {
        if (db->nonhorn[i] < 0 || db->nonhorn[i] >= db->n_clauses) {
            return LG_E_INDEX;
        }
    }
    if (db->n_cond) {
        if (db->cond_row[0] != 0) {
            return LG_E_INDEX;
        }
        for (i = 0; i < db->n_cond; ++i) {
            if (db->cond_var[i] < 1 || db->cond_var[i] > db->n_vars ||
                db->cond_axis[i] < 0 || db->cond_axis[i] >= db->n_params ||
                db->cond_row[i + 1] <= db->cond_row[i]) {
                return LG_E_INDEX;
            }
        }
        if (db->row_lo == NULL || db->row_hi == NULL || db->cond_watch == NULL) {
            return LG_E_ARG;
        }
        for (i = 0; i < db->n_cond; ++i) {
            if (i > 0 && db->cond_var[i] == db->cond_var[i - 1]) {
                return LG_E_INDEX; /* one entry per variable */
            }
        }
    }
    if (db->report == NULL) {
        return LG_E_ARG;
    }
    return LG_OK;
}

void lg_reset(const lg_db *db, lg_work *w)
{
    int8_t *const value = w->value;
    int32_t *const reason = w->reason;
    const int32_t *const cond_var = db->cond_var;
    const int32_t *const trail = w->trail;
    const int32_t n_cond = db->n_cond, n_trail = w->n_trail;
    int32_t i;
    for (i = 0; i < n_cond; ++i) { /* facts, on the trail or not */
        value[cond_var[i]] = 0;
        reason[cond_var[i]] = LG_REASON_NONE;
    }
    for (i = 0; i < n_trail; ++i) {
        value[trail[i]] = 0;
        reason[trail[i]] = LG_REASON_NONE;
    }
    for (i = 0; i < w->n_touched; ++i) {
        w->nfalse[w->touched[i]] = 0;
    }
    for (i = 0; i < w->n_cone; ++i) {
        w->cmark[w->cone[i]] = 0;
    }
    for (i = 0; i < w->n_cone_vars; ++i) {
        w->vmark[w->cone_vars[i]] = 0;
    }
    w->n_trail = w->n_touched = w->n_cone = w->n_cone_vars = w->n_reported = 0;
    w->conflict = -1;
}

/*
 * Facts: every condition variable whose parameter has a value.  Only facts whose false
 * literal occurs in a clause propagation must visit go on the trail; the others could
 * only reach clauses that their parameter's value satisfies anyway.
 */
static void read_facts(const lg_db *db, lg_work *w, const double *x)
{
    /* Locals, so that the int8_t stores (which may alias anything) do not force every
       pointer to be reloaded from db and w at each step. */
    const int32_t n_cond = db->n_cond;
    const int32_t *const cond_axis = db->cond_axis;
    const int32_t *const cond_var = db->cond_var;
    const int32_t *const cond_row = db->cond_row;
    const uint8_t *const cond_watch = db->cond_watch;
    const double *const row_lo = db->row_lo;
    const double *const row_hi = db->row_hi;
    int8_t *const value = w->value;
    int32_t *const reason = w->reason;
    int32_t *const trail = w->trail;
    int32_t k, r, n = w->n_trail;
    for (k = 0; k < n_cond; ++k) {
        double v = x[cond_axis[k]];
        int32_t var = cond_var[k];
        int32_t first = cond_row[k];
        int32_t end = cond_row[k + 1];
        int inside;
        if (v != v) {
            continue; /* NaN: unknown, neither the condition nor its negation */
        }
        /* every variable has a first row; more rows (an "outside") are rare */
        inside = (row_lo[first] <= v) & (v <= row_hi[first]);
        for (r = first + 1; r < end; ++r) {
            inside |= (row_lo[r] <= v) & (v <= row_hi[r]);
        }
        /* no data-dependent branches below: the outcome is a coin flip per variable */
        value[var] = (int8_t)(2 * inside - 1);
        reason[var] = LG_REASON_FACT;
        trail[n] = var;
        n += (cond_watch[k] >> inside) & 1;
    }
    w->n_trail = n;
}

/* Unit propagation from the trail; returns the falsified clause or -1. */
static int32_t propagate(const lg_db *db, lg_work *w, const uint8_t *skip)
{
    int32_t head = 0;
    while (head < w->n_trail) {
        int32_t v = w->trail[head++];
        int32_t code = w->value[v] > 0 ? 2 * v + 1 : 2 * v; /* the literal made false */
        int32_t k;
        /* a fact's parameter is known: its always-true relation clauses are satisfied */
        int32_t end = w->reason[v] == LG_REASON_FACT ? db->occ_mid[code] : db->occ_start[code + 1];
        for (k = db->occ_start[code]; k < end; ++k) {
            int32_t c = db->occ[k];
            int32_t size, j, open = 0, is_sat = 0;
            if (skip != NULL && skip[c]) {
                continue;
            }
            if (w->nfalse[c]++ == 0) {
                w->touched[w->n_touched++] = c;
            }
            size = db->start[c + 1] - db->start[c];
            if (w->nfalse[c] < size - 1) {
                continue;
            }
            for (j = db->start[c]; j < db->start[c + 1]; ++j) {
                int val = lit_value(w->value, db->lits[j]);
                if (val > 0) {
                    is_sat = 1;
                    break;
                }
                if (val == 0) {
                    open = db->lits[j];
                }
            }
            if (is_sat) {
                continue;
            }
            if (open == 0) {
                return c;
            }
            assign(db, w, open, c);
        }
    }
    return -1;
}

/* Every negated open variable of clause c is already in the cone. */
static int negatives_in_cone(const lg_db *db, const lg_work *w, int32_t c)
{
    int32_t j;
    for (j = db->start[c]; j < db->start[c + 1]; ++j) {
        int32_t l = db->lits[j];
        if (l < 0 && w->value[-l] == 0 && !w->vmark[-l]) {
            return 0;
        }
    }
    return 1;
}

/*
 * The cone: the blocking clauses (open, every open literal positive), then every open
 * clause whose negated open variables all belong to the cone, transitively.  Any other
 * open clause negates a variable outside the cone, which "all false" makes true, so a
 * model of the cone with every other open variable false satisfies everything.
 */
static void find_cone(const lg_db *db, lg_work *w, const uint8_t *skip)
{
    int32_t i, j, head = 0;
    for (i = 0; i < db->n_nonhorn; ++i) {
        int32_t c = db->nonhorn[i];
        int blocking = 1;
        if ((skip != NULL && skip[c]) || w->cmark[c]) {
            continue;
        }
        for (j = db->start[c]; j < db->start[c + 1]; ++j) {
            int32_t l = db->lits[j];
            int val = lit_value(w->value, l);
            if (val > 0 || (val == 0 && l < 0)) {
                blocking = 0; /* satisfied, or "all false" satisfies it */
                break;
            }
        }
        if (blocking) {
            w->cmark[c] = 1;
            w->cone[w->n_cone++] = c;
        }
    }
    while (head < w->n_cone) {
        int32_t c = w->cone[head++];
        for (j = db->start[c]; j < db->start[c + 1]; ++j) {
            int32_t v = db->lits[j] > 0 ? db->lits[j] : -db->lits[j];
            int32_t k;
            if (w->value[v] != 0 || w->vmark[v]) {
                continue;
            }
            w->vmark[v] = 1;
            w->cone_vars[w->n_cone_vars++] = v;
            for (k = db->occ_start[2 * v + 1]; k < db->occ_start[2 * v + 2]; ++k) {
                int32_t d = db->occ[k];
                if ((skip != NULL && skip[d]) || w->cmark[d] || satisfied(db, w->value, d) ||
                    !negatives_in_cone(db, w, d)) {
                    continue;
                }
                w->cmark[d] = 1;
                w->cone[w->n_cone++] = d;
            }
        }
    }
}

int lg_evaluate(const lg_db *db, lg_work *w, const double *x, int32_t n_x, const uint8_t *skip)
{
    int32_t i, c;
    if (db == NULL || w == NULL || (x == NULL && n_x > 0)) {
        return LG_E_ARG;
    }
    if (n_x != db->n_params) {
        return LG_E_SHAPE;
    }
    lg_reset(db, w);
    read_facts(db, w, x);
    for (i = 0; i < db->n_units; ++i) {
        int32_t l;
        int val;
        c = db->units[i];
        if (skip != NULL && skip[c]) {
            continue;
        }
        l = db->lits[db->start[c]];
        val = lit_value(w->value, l);
        if (val < 0) {
            w->conflict = c;
            return LG_CONFLICT;
        }
        if (val == 0) {
            assign(db, w, l, c);
        }
    }
    c = propagate(db, w, skip);
    if (c >= 0) {
        w->conflict = c;
        return LG_CONFLICT;
    }
    find_cone(db, w, skip);
    return w->n_cone > 0 ? LG_CONE : LG_OK;
}
