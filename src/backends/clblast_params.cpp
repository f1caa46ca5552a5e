// C++ only because CLBlast's parameter query is: clblast_params.h is its C face.
#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <clblast.h>

#include "clblast_params.h"

int clb_clblast_retrieve(cl_device_id dev, const char *kernel, int precision,
                         struct clb_tune_params *out)
{
    try {
        std::unordered_map<std::string, size_t> found;
        const auto st = clblast::RetrieveParameters(
            dev, kernel, static_cast<clblast::Precision>(precision), found);
        if (st != clblast::StatusCode::kSuccess)
            return static_cast<int>(st);
        std::vector<std::pair<std::string, size_t>> sorted(found.begin(), found.end());
        std::sort(sorted.begin(), sorted.end());
        std::memset(out, 0, sizeof(*out));
        for (const auto &p : sorted) {
            if (out->n == CLB_TUNE_MAX_PARAMS || p.first.size() >= sizeof(out->name[0]))
                return static_cast<int>(clblast::StatusCode::kUnknownError);
            clb_tune_set(out, p.first.c_str(), p.second);
        }
        return 0;
    } catch (...) {
        return static_cast<int>(clblast::StatusCode::kUnknownError);
    }
}
