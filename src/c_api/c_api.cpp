// The C API (include/bristle/c_api.h) over bristle::contact::Contact. Handles are ids into a registry of
// shared contacts (ids are never reused); every entry point catches every exception and turns it into a
// status code and the thread's last-error text.
#include "bristle/c_api.h"

#include <fmt/format.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>

#include "bristle/contact/contact.hpp"
#include "bristle/core/error.hpp"

namespace {

using bristle::contact::Contact;

thread_local std::string last_error;

class Registry {
 public:
  bristle_contact add(std::shared_ptr<Contact> contact) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const bristle_contact id = ++last_id_;
    contacts_.emplace(id, std::move(contact));
    return id;
  }
  /// The contact of `id`, or null.
  std::shared_ptr<Contact> find(bristle_contact id) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = contacts_.find(id);
    return it == contacts_.end() ? nullptr : it->second;
  }
  bool remove(bristle_contact id) {
    const std::lock_guard<std::mutex> lock(mutex_);
    return contacts_.erase(id) > 0;
  }

 private:
  std::mutex mutex_;
  bristle_contact last_id_ = 0;
  std::unordered_map<bristle_contact, std::shared_ptr<Contact>> contacts_;
};

Registry& registry() {
  static Registry r;  // never destroyed before the last call (function-local static)
  return r;
}

int fail(int status, std::string message) {
  try {
    last_error = std::move(message);
  } catch (...) {  // no memory for the message: keep the old one
  }
  return status;
}

/// Runs f() and maps exceptions to status codes.
template <class F>
int guarded(F&& f) noexcept {
  try {
    return f();
  } catch (const bristle::InvalidInput& e) {
    return fail(BRISTLE_INVALID_INPUT, e.what());
  } catch (const bristle::SolverError& e) {
    return fail(BRISTLE_SOLVER_ERROR, e.what());
  } catch (const std::bad_alloc&) {
    return fail(BRISTLE_INTERNAL_ERROR, "out of memory");
  } catch (const std::exception& e) {
    return fail(BRISTLE_INTERNAL_ERROR, e.what());
  } catch (...) {
    return fail(BRISTLE_INTERNAL_ERROR, "unknown error");
  }
}

int invalid_handle(const char* function, bristle_contact handle) {
  return fail(BRISTLE_INVALID_HANDLE,
              fmt::format("{}: handle {} is not a live contact (0, destroyed or never created)", function, handle));
}

int null_pointer(const char* function, const char* argument) {
  return fail(BRISTLE_NULL_POINTER, fmt::format("{}: {} must not be NULL", function, argument));
}

/// Looks the handle up and runs f(contact).
template <class F>
int with_contact(const char* function, bristle_contact handle, F&& f) noexcept {
  return guarded([&]() -> int {
    const std::shared_ptr<Contact> c = registry().find(handle);
    if (!c) return invalid_handle(function, handle);
    return f(*c);
  });
}

int create(bristle_contact* out, const char* function, Contact&& contact) {
  if (!out) return null_pointer(function, "out");
  *out = registry().add(std::make_shared<Contact>(std::move(contact)));
  return BRISTLE_OK;
}

}  // namespace

extern "C" {

const char* bristle_last_error(void) { return last_error.c_str(); }

const char* bristle_status_name(int status) {
  switch (status) {
    case BRISTLE_OK: return "BRISTLE_OK";
    case BRISTLE_INVALID_INPUT: return "BRISTLE_INVALID_INPUT";
    case BRISTLE_SOLVER_ERROR: return "BRISTLE_SOLVER_ERROR";
    case BRISTLE_INVALID_HANDLE: return "BRISTLE_INVALID_HANDLE";
    case BRISTLE_NULL_POINTER: return "BRISTLE_NULL_POINTER";
    case BRISTLE_INTERNAL_ERROR: return "BRISTLE_INTERNAL_ERROR";
    default: return "unknown status";
  }
}

int bristle_contact_create_lugre(double Fc_N, double Fs_N, double vs_mps, double sigma0_N_per_m,
                                 double sigma1_Ns_per_m, double sigma2_Ns_per_m, double delta,
                                 bristle_contact* out) {
  return guarded([&] {
    if (!out) return null_pointer("bristle_contact_create_lugre", "out");
    return create(out, "bristle_contact_create_lugre",
                  Contact::lugre(Fc_N, Fs_N, vs_mps, sigma0_N_per_m, sigma1_Ns_per_m, sigma2_Ns_per_m, delta));
  });
}

int bristle_contact_create_dahl(double Fc_N, double sigma0_N_per_m, bristle_contact* out) {
  return guarded([&] {
    if (!out) return null_pointer("bristle_contact_create_dahl", "out");
    return create(out, "bristle_contact_create_dahl", Contact::dahl(Fc_N, sigma0_N_per_m));
  });
}

int bristle_contact_destroy(bristle_contact handle) {
  return guarded([&] {
    if (!registry().remove(handle)) return invalid_handle("bristle_contact_destroy", handle);
    return static_cast<int>(BRISTLE_OK);
  });
}

int bristle_contact_step(bristle_contact handle, double dt_s, double v_mps, double* F_N) {
  return with_contact("bristle_contact_step", handle, [&](Contact& c) {
    if (!F_N) return null_pointer("bristle_contact_step", "F_N");
    *F_N = c.step(dt_s, v_mps);
    return static_cast<int>(BRISTLE_OK);
  });
}

int bristle_contact_step_2d(bristle_contact handle, double dt_s, double vx_mps, double vy_mps, double* Fx_N,
                            double* Fy_N) {
  return with_contact("bristle_contact_step_2d", handle, [&](Contact& c) {
    if (!Fx_N) return null_pointer("bristle_contact_step_2d", "Fx_N");
    if (!Fy_N) return null_pointer("bristle_contact_step_2d", "Fy_N");
    const bristle::Vec2 F = c.step(dt_s, bristle::Vec2(vx_mps, vy_mps));
    *Fx_N = F[0];
    *Fy_N = F[1];
    return static_cast<int>(BRISTLE_OK);
  });
}

int bristle_contact_reset(bristle_contact handle) {
  return with_contact("bristle_contact_reset", handle, [&](Contact& c) {
    c.reset();
    return static_cast<int>(BRISTLE_OK);
  });
}

int bristle_contact_state_size(bristle_contact handle, int* size) {
  return with_contact("bristle_contact_state_size", handle, [&](Contact& c) {
    if (!size) return null_pointer("bristle_contact_state_size", "size");
    *size = c.state_size();
    return static_cast<int>(BRISTLE_OK);
  });
}

int bristle_contact_get_state(bristle_contact handle, double* u, int size) {
  return with_contact("bristle_contact_get_state", handle, [&](Contact& c) {
    if (!u) return null_pointer("bristle_contact_get_state", "u");
    if (size != c.state_size())
      return fail(BRISTLE_INVALID_INPUT,
                  fmt::format("bristle_contact_get_state: size = {}: must be the state size {}", size, c.state_size()));
    for (int i = 0; i < size; ++i) u[i] = c.state()[i];
    return static_cast<int>(BRISTLE_OK);
  });
}

int bristle_contact_set_state(bristle_contact handle, const double* u, int size) {
  return with_contact("bristle_contact_set_state", handle, [&](Contact& c) {
    if (!u) return null_pointer("bristle_contact_set_state", "u");
    if (size != c.state_size())
      return fail(BRISTLE_INVALID_INPUT,
                  fmt::format("bristle_contact_set_state: size = {}: must be the state size {}", size, c.state_size()));
    c.set_state(Eigen::Map<const bristle::VecX>(u, size));
    return static_cast<int>(BRISTLE_OK);
  });
}

int bristle_contact_energies(bristle_contact handle, double* time_s, double* stored_J, double* supplied_J,
                             double* dissipated_J) {
  return with_contact("bristle_contact_energies", handle, [&](Contact& c) {
    if (time_s) *time_s = c.time_s();
    if (stored_J) *stored_J = c.stored_energy_J();
    if (supplied_J) *supplied_J = c.supplied_energy_J();
    if (dissipated_J) *dissipated_J = c.dissipated_energy_J();
    return static_cast<int>(BRISTLE_OK);
  });
}

int bristle_contact_set_energy_tracking(bristle_contact handle, int on) {
  return with_contact("bristle_contact_set_energy_tracking", handle, [&](Contact& c) {
    c.set_energy_tracking(on != 0);
    return static_cast<int>(BRISTLE_OK);
  });
}

int bristle_contact_energy_tracking(bristle_contact handle, int* on) {
  return with_contact("bristle_contact_energy_tracking", handle, [&](Contact& c) {
    if (!on) return null_pointer("bristle_contact_energy_tracking", "on");
    *on = c.energy_tracking() ? 1 : 0;
    return static_cast<int>(BRISTLE_OK);
  });
}

}  // extern "C"
