#pragma once
// Private: the upwind stencil shared by the steady and transient patch solvers.
#include <cmath>

#include "bristle/patch/patch.hpp"

namespace bristle::patch::detail {

// Upwind derivative weights at a node from points at distances d1 < d2 upstream: the derivative of
// the quadratic through them (three-point backward formula).
struct Backward {
  double c_node, c1, c2;
};
inline Backward backward3(double d1, double d2) {
  return {1.0 / d1 + 1.0 / d2, -d2 / (d1 * (d2 - d1)), d1 / (d2 * (d2 - d1))};
}

// Adds one direction of W . grad u to a stencil: n cells, node index i along the direction, mapped
// velocity W, stride between neighbours in the node numbering, spacing h. The inflow face (the
// leading edge, value 0 by eq. 50) lies half a cell beyond the first cell.
inline void add_direction(PatchSolver::Stencil& s, int& slot, int i, int n, double W, int node, int stride,
                          double h) {
  if (W == 0.0) return;
  const double aw = std::abs(W);
  const int up = W > 0.0 ? -1 : 1;               // direction of the upstream neighbours
  const int upstream = W > 0.0 ? i : n - 1 - i;  // cells between the node and the inflow face
  if (upstream == 0) {
    s.diag += aw * 2.0 / h;  // only the face (value 0) half a cell upstream: first order
    return;
  }
  const double d1 = h, d2 = upstream == 1 ? 1.5 * h : 2.0 * h;
  const Backward b = backward3(d1, d2);
  s.diag += aw * b.c_node;
  s.nb[slot] = node + up * stride;
  s.wt[slot++] = aw * b.c1;
  if (upstream >= 2) {
    s.nb[slot] = node + 2 * up * stride;
    s.wt[slot++] = aw * b.c2;
  }  // else the second point is the face, value 0
}

}  // namespace bristle::patch::detail
