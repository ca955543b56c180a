#pragma once
// The viscoelastic contact pair (paper 1, §3.1.2, eqs. 12-19): the upper body (1) and the substrate (2),
// each a linear rheology, carrying opposite bristle forces f1 = f = -f2.
//
//   z1 = K01^-1 (f - C1 zeta1),  z2 = -K02^-1 (f + C2 zeta2),  z = z1 - z2              eq. 14
//   K0bar = (K01^-1 + K02^-1)^-1                                                       eq. 16a
//   Cbar  = K0bar [K01^-1 C1, -K02^-1 C2]                                              eq. 16b
//   S1 = K0bar K01^-1, S2 = K0bar K02^-1 (S1 + S2 = I)                                  eq. 19b-c
//   S0 = -(K01 + K02)^-1 [C1 C2]                                                        eq. 19a
//   zeta1' = A1 zeta1 + B1 f,  zeta2' = A2 zeta2 - B2 f                   eqs. 17b-c (17c per errata)
//
// For isotropic elastic parts the paper's parameter is s = s2 = k01/(k01 + k02) (errata, §5);
// s -> 0 is a rigid substrate (lumped friction), s -> 1 a rigid upper body.
// A rigid body has zero compliance; both bodies rigid is rejected (no bristle can deform).
// When both bodies are deformable and anisotropic, K01 and K02 must commute (share principal axes),
// as the paper assumes for eqs. 19 and 41.
#include <string_view>

#include "bristle/core/types.hpp"
#include "bristle/rheology/rheology.hpp"

namespace bristle::rheology {

class ContactPair {
 public:
  ContactPair(const RheologyParams& body1, const RheologyParams& body2);

  const Realisation& body1() const { return body1_; }
  const Realisation& body2() const { return body2_; }
  int n1() const { return body1_.n; }
  int n2() const { return body2_.n; }
  int zeta_size() const { return 2 * (body1_.n + body2_.n); }

  const Mat2& K0bar() const { return K0bar_; }   // eq. 16a
  const Mat2& K0bar_inv() const { return K0bar_inv_; }
  /// Static stiffness: f / z once every branch has relaxed, (sum of the bodies' static compliances)^-1.
  const Mat2& K_static() const { return K_static_; }
  const Mat2& S1() const { return S1_; }         // eq. 19b
  const Mat2& S2() const { return S2_; }         // eq. 19c
  const Mat2X& Cbar() const { return Cbar_; }    // eq. 16b, 2 x 2n
  const Mat2X& S0() const { return S0_; }        // eq. 19a, 2 x 2n

  /// Relative deformation z = K0bar^-1 (f - Cbar zeta) (eq. 15).
  Vec2 relative_deformation(const Vec2& f, const double* zeta) const;
  /// Stored energy W of eq. 85 at a point (normalised, per unit pressure): both bodies' springs.
  double stored_energy(const Vec2& f, const double* zeta) const;

 private:
  Realisation body1_, body2_;
  Mat2 K0bar_, K0bar_inv_, K_static_, S1_, S2_;
  Mat2X Cbar_, S0_;
};

/// Isotropic pair from the paper's parameters: k01 (1/m) and s in (0, 1) give k02 = k01 (1 - s)/s.
/// Throws InvalidInput naming `key_s` if s is not in (0, 1).
double substrate_stiffness_from_s(std::string_view key_s, double s, double k01);

}  // namespace bristle::rheology
