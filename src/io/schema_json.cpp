// The JSON echo of parameters from their serialize() walk (schema_json.hpp).
#include "schema_json.hpp"

namespace bristle::io::detail {

Json matrix_json(const Mat2& m) {
  if (m(0, 1) == 0.0 && m(1, 0) == 0.0) {
    if (m(0, 0) == m(1, 1)) return Json(m(0, 0));
    return Json(std::vector<double>{m(0, 0), m(1, 1)});
  }
  Json out = Json::array();
  out.push_back(Json(std::vector<double>{m(0, 0), m(0, 1)}));
  out.push_back(Json(std::vector<double>{m(1, 0), m(1, 1)}));
  return out;
}

Json vec_json(const Vec2& v) { return Json(std::vector<double>{v[0], v[1]}); }

}  // namespace bristle::io::detail
