#pragma once
// Small value types shared by every module: 2-vectors, 2x2 matrices and dynamic vectors.
#include <Eigen/Dense>

namespace bristle {

using Vec2 = Eigen::Vector2d;  // a tangential vector (x, y)
using Mat2 = Eigen::Matrix2d;  // a 2x2 matrix acting on tangential vectors
using VecX = Eigen::VectorXd;  // a state vector
using MatX = Eigen::MatrixXd;  // a dense matrix (state-space realisations, Jacobians)
using Mat2X = Eigen::Matrix<double, 2, Eigen::Dynamic>;  // 2 x n: maps from internal states to forces

/// Rotation by angle theta (rad) in the plane; paper 1, eq. 41.
inline Mat2 rotation(double theta) {
  Mat2 r;
  r << std::cos(theta), -std::sin(theta), std::sin(theta), std::cos(theta);
  return r;
}

}  // namespace bristle
