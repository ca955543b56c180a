#include "bristle/structures/contact_stepper.hpp"

#include <limits>

#include "bristle/core/error.hpp"

namespace bristle::structures {

ContactStepper::ContactStepper(int contact_count, double dt) : contact_count_(contact_count), dt_(dt) {
  require_positive("dt_s", dt);
  f_ = VecX::Zero(contact_count);
  v_ = VecX::Zero(contact_count);
  w_ = VecX::Zero(contact_count);
  v_pred_ = VecX::Zero(contact_count);
  admittance_ = MatX::Zero(contact_count, contact_count);
}

}  // namespace bristle::structures
