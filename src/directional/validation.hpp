#pragma once
// Private: the checks of eps and gamma shared by the eps-systems and the wiggly potentials, so that
// both report the same message.
#include <string_view>

namespace bristle::directional::detail {

/// eps > 0: "epsilon = <value>: must be > 0 (...; paper 2, eq. 3.4)".
void require_epsilon(std::string_view key, double epsilon);
/// gamma > 0: "gamma = <value>: must be > 0 (...; paper 2, eq. 2.7)".
void require_gamma(std::string_view key, double gamma);

}  // namespace bristle::directional::detail
