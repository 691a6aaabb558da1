/*
 * Logic path: facts from a sensor state, then unit propagation over the CNF clauses.
 *
 * A state fixes every condition variable whose parameter is present (true inside one
 * of the variable's intervals, false outside all of them); unit propagation then
 * derives what those facts force.  For a Horn remainder that is the whole answer: with
 * no conflict, every clause still open has a negative literal, so "every open variable
 * false" is a model and nothing beyond the propagated literals is entailed.  Only
 * clauses left with two or more open literals, all positive, can spoil that model;
 * lg_evaluate then returns LG_CONE with those clauses and, transitively, the open
 * clauses whose negated open variables all lie in the cone.  The caller hands the cone
 * to a SAT solver: a model of the cone with every other open variable false satisfies
 * the whole remainder, so the cone decides consistency and entailment alone.
 *
 * The database and the scratch arrays belong to Python (runtime/logic/clauses.py,
 * runtime/logic/propagation.py); nothing is allocated here.  One lg_work must not be
 * used by two calls at once.
 */
#ifndef RULEC_LOGIC_H
#define RULEC_LOGIC_H

#include <stdint.h>

/* Outcomes (>= 0) and failures (< 0). */
#define LG_OK 0       /* consistent; the propagated literals are exactly what is entailed */
#define LG_CONFLICT 1 /* propagation falsified clause w->conflict: facts + clauses unsat */
#define LG_CONE 2     /* no conflict; clauses w->cone[0 .. n_cone) need a solver */
#define LG_E_ARG (-2)   /* NULL pointer or negative size */
#define LG_E_SHAPE (-3) /* state length differs from n_params */
#define LG_E_INDEX (-4) /* database arrays inconsistent (lg_validate) */

/* w->reason[v] when v is not forced by a clause. */
#define LG_REASON_NONE (-2) /* unassigned */
#define LG_REASON_FACT (-1) /* a fact read from the state */

typedef struct {
    int32_t n_vars;
    int32_t n_clauses;
    int32_t n_params;
    const int32_t *start;     /* [n_clauses + 1] clause c is lits[start[c] .. start[c+1]) */
    const int32_t *lits;      /* DIMACS literals, never 0 */
    const int32_t *occ_start; /* [2 * n_vars + 3] clauses holding literal code k are */
    const int32_t *occ;       /* occ[occ_start[k] .. occ_start[k+1]); code(+v) = 2v, code(-v) = 2v+1 */
    const int32_t *occ_mid;   /* [2 * n_vars + 2] occ[occ_mid[k] .. occ_start[k+1]) are clauses
                                 over conditions of the variable's own parameter that every
                                 value of it satisfies (implication, disjointness): skipped
                                 when the variable is a fact */
    int32_t n_units;
    const int32_t *units;     /* clauses of one literal */
    int32_t n_nonhorn;
    const int32_t *nonhorn;   /* clauses with two or more positive literals */
    int32_t n_cond;           /* condition variables with intervals */
    const int32_t *cond_var;  /* [n_cond] DIMACS number */
    const int32_t *cond_axis; /* [n_cond] parameter */
    const int32_t *cond_row;  /* [n_cond + 1] rows of cond k: cond_row[k] .. cond_row[k+1] */
    const double *row_lo;     /* inclusive bounds: lo <= x <= hi (strict ones were moved */
    const double *row_hi;     /* to the next double by the builder); NaN fails */
    const uint8_t *cond_watch; /* [n_cond] bit0: +v occurs before occ_mid (matters when the
                                  fact is false), bit1: -v does (when true); a fact whose
                                  false literal occurs nowhere else is not propagated */
    const uint8_t *report;    /* [n_vars + 1] nonzero: list the variable in w->reported
                                 when propagation makes it true (the actions) */
} lg_db;

typedef struct {
    int8_t *value;      /* [n_vars + 1] 1 true, -1 false, 0 open */
    int32_t *reason;    /* [n_vars + 1] forcing clause, or LG_REASON_* */
    int32_t *trail;     /* [n_vars] assigned variables in order */
    int32_t n_trail;
    int32_t *nfalse;    /* [n_clauses] false literals seen per clause */
    int32_t *touched;   /* [n_clauses] clauses with nfalse > 0, for the reset */
    int32_t n_touched;
    uint8_t *cmark;     /* [n_clauses] in the cone */
    int32_t *cone;      /* [n_clauses] */
    int32_t n_cone;
    uint8_t *vmark;     /* [n_vars + 1] variable seen by the cone search */
    int32_t *cone_vars; /* [n_vars] */
    int32_t n_cone_vars;
    int32_t conflict;   /* falsified clause, or -1 */
    int32_t *reported;  /* [n_vars] variables flagged in db->report made true, in order */
    int32_t n_reported;
} lg_work;

/* Check every offset, literal and index so that lg_evaluate never reads out of bounds. */
int lg_validate(const lg_db *db);

/* Put w back to "nothing assigned" (also done at the start of every lg_evaluate). */
void lg_reset(const lg_db *db, lg_work *w);

/*
 * Facts from x (n_x == n_params values, NaN = unknown), then unit propagation.
 * Clauses with skip[c] != 0 are ignored (skip may be NULL).  Returns LG_OK,
 * LG_CONFLICT or LG_CONE, or a negative failure; the assignment stays in w.
 */
int lg_evaluate(const lg_db *db, lg_work *w, const double *x, int32_t n_x, const uint8_t *skip);

#endif /* RULEC_LOGIC_H */
