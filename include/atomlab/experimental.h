/**
 * @file experimental.h
 * Included by the headers that are not atomlab's stable API (the models, plots, reports, files, fleets): they
 * are declared only where ATL_EXPERIMENTAL is defined, link only from the static libatomlab.a, and may change in
 * any release (include/atomlab/context.h says what is stable).
 */
#ifndef ATL_EXPERIMENTAL
#error "this atomlab header is experimental: define ATL_EXPERIMENTAL and link the static libatomlab.a"
#endif
