#include "bristle/core/interrupt.hpp"

namespace bristle {

std::atomic<InterruptCheck> detail::interrupt_check{nullptr};

InterruptCheck set_interrupt_check(InterruptCheck check) noexcept { return detail::interrupt_check.exchange(check); }

}  // namespace bristle
