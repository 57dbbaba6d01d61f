/* cfg_expr.h - the integer expressions of the preprocessor's #if and
 * #elif (cfg_expr.c), evaluated after their macros were expanded.
 *
 * Values are 64-bit signed integers written in decimal or 0x hex.  The
 * operators, loosest first: ||, &&, == !=, < <= > >=, + -, * / %, then the
 * unary ! - + ~ and parentheses; as in C, a comparison or a logical
 * operator gives 0 or 1.  Anything else (a name left after expansion, a
 * string, a float, a division by zero, ===) makes the expression one that
 * cannot be evaluated.
 *
 * Contract: no allocation, no global state; parentheses and unary
 * operators nest at most CFG_EXPR_DEPTH deep.
 */
#ifndef RTM_CFG_EXPR_H
#define RTM_CFG_EXPR_H

#include <stddef.h>
#include <stdint.h>

enum { CFG_EXPR_DEPTH = 64 };

/* s (n bytes) as an integer expression: 0 and *val, or -1 with a short
 * reason in why (nwhy bytes; may be NULL). */
int cfg_expr_eval(const char *s, size_t n, int64_t *val, char *why, size_t nwhy);

#endif
