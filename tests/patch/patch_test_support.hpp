#pragma once
// Shared parameters of the patch tests: paper 1, Table 2 (rolling).
#include "bristle/contact/contact_model.hpp"
#include "bristle/laws/friction_law.hpp"
#include "bristle/rheology/contact_pair.hpp"

namespace bristle::patch::test {

constexpr double kK01 = 240.0;  // 1/m, Table 2
inline laws::LawParams table2_law() {
  laws::LawParams p;
  p.kind = laws::LawKind::frbd;
  p.M.axis1 = laws::StribeckParams{1.2, 0.7, 3.49, 0.6, 0.0};
  return p;
}
inline contact::ContactModel elastic_pair(const laws::LawParams& law, double s) {
  return contact::ContactModel(law, rheology::elastic(kK01),
                               rheology::elastic(rheology::substrate_stiffness_from_s("s", s, kK01)));
}
/// Table 2 GKV pair with n1 = n2 = 1 (c_11 = 72, tau_11 = 0.1; c_12 = 18, tau_12 = 0.3).
inline contact::ContactModel gkv_pair(const laws::LawParams& law, double s) {
  return contact::ContactModel(law, rheology::gkv(kK01, {72.0}, {0.1}),
                               rheology::gkv(rheology::substrate_stiffness_from_s("s", s, kK01), {18.0}, {0.3}));
}

}  // namespace bristle::patch::test
