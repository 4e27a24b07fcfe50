// Pareto fronts (pareto.h). The front is found in O(n log n): with both axes
// turned so that more is better, points sorted by x from the best down are on the front exactly
// when their y beats every y seen at a larger x.
#include "study/pareto.h"

#include <algorithm>
#include <cmath>

namespace llmperf {

std::vector<size_t> pareto_front(const std::vector<ParetoPoint>& points, bool maximize_x,
                                 bool maximize_y) {
  struct Oriented {
    double x;  // more is better
    double y;  // more is better
    size_t index;
  };
  std::vector<Oriented> oriented;
  for (size_t i = 0; i < points.size(); ++i) {
    const ParetoPoint& p = points[i];
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
    oriented.push_back({maximize_x ? p.x : -p.x, maximize_y ? p.y : -p.y, i});
  }
  std::sort(oriented.begin(), oriented.end(), [](const Oriented& a, const Oriented& b) {
    if (a.x != b.x) return a.x > b.x;
    return a.y > b.y;
  });
  std::vector<size_t> front;
  bool any = false;
  double best_y = 0;  // the best y at a strictly better x than the group at hand
  for (size_t group = 0; group < oriented.size();) {
    size_t end = group;
    while (end < oriented.size() && oriented[end].x == oriented[group].x) ++end;
    const double top = oriented[group].y;  // the group's best y (sorted so)
    if (!any || top > best_y) {
      for (size_t i = group; i < end && oriented[i].y == top; ++i)
        front.push_back(oriented[i].index);
      best_y = top;
      any = true;
    }
    group = end;
  }
  std::sort(front.begin(), front.end(), [&](size_t a, size_t b) {
    if (points[a].x != points[b].x) return points[a].x < points[b].x;
    return a < b;
  });
  return front;
}

}  // namespace llmperf
