// Uses the installed library: the steady FrBD force at 1 m/s equals -mu.
#include <bristle/contact/contact_model.hpp>

#include <cmath>
#include <cstdio>

int main() {
  bristle::laws::LawParams law;
  law.kind = bristle::laws::LawKind::frbd;
  law.M.axis1.mu_s = law.M.axis1.mu_d = 0.5;
  const bristle::contact::ContactModel model(law, bristle::rheology::elastic(1e3), bristle::rheology::rigid());
  const double f = model.steady_force(bristle::Vec2(1.0, 0.0))[0];
  std::printf("bristle consumer: steady FrBD force %.6f (expected -0.5)\n", f);
  return std::abs(f + 0.5) < 1e-12 ? 0 : 1;
}
