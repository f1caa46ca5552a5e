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

// The database lookup reads the loaded library's image: CLBlast keeps no query for it.
#include <dlfcn.h>

#include <clblast_c.h>
#include <cstdio>
#include <fstream>
#include <iterator>

namespace {
// CLBlast's database::Name: 50 characters, space-padded, then NUL.
constexpr size_t kNameChars = 50;

bool contains(const char *image, size_t len, const std::string &needle)
{
    return !needle.empty() &&
           std::search(image, image + len, needle.begin(), needle.end()) != image + len;
}
} // namespace

enum clb_clblast_entry clb_clblast_match(const char *image, size_t len, const char *name,
                                         const char *architecture)
{
    if (!image || !len)
        return CLB_CLBLAST_UNKNOWN;
    if (name && *name) {
        std::string padded(name, std::min(std::strlen(name), kNameChars));
        padded.resize(kNameChars, ' ');
        padded.push_back('\0');
        if (contains(image, len, padded))
            return CLB_CLBLAST_DEVICE;
    }
    if (architecture && *architecture) {
        std::string delimited(1, '\0');
        delimited += architecture;
        delimited.push_back('\0');
        if (contains(image, len, delimited))
            return CLB_CLBLAST_ARCHITECTURE;
    }
    return CLB_CLBLAST_NONE;
}

void clb_clblast_names(const char *vendor_ext, const char *device_name, const char *board_name,
                       unsigned nv_cc_major, unsigned nv_cc_minor, char *name, size_t name_len,
                       char *architecture, size_t arch_len)
{
    const std::string ext = vendor_ext ? vendor_ext : "";
    const bool nv = ext.find("cl_nv_device_attribute_query") != std::string::npos;
    const bool amd = ext.find("cl_amd_device_attribute_query") != std::string::npos;

    std::snprintf(name, name_len, "%s", amd && board_name && *board_name ? board_name
                                        : device_name                    ? device_name
                                                                         : "");
    if (nv)
        std::snprintf(architecture, arch_len, "SM%u.%u", nv_cc_major, nv_cc_minor);
    else
        // ROCm names the target with its features ("gfx942:sramecc+:xnack-"): the chip is first.
        std::snprintf(architecture, arch_len, "%.*s",
                      amd && device_name ? static_cast<int>(std::strcspn(device_name, ":")) : 0,
                      amd && device_name ? device_name : "");
}

enum clb_clblast_entry clb_clblast_lookup(const char *name, const char *architecture, char *why,
                                          size_t why_len)
{
    // Read once: the file of the library that holds CLBlastSgemm, as loaded.
    static std::string image;
    static bool read = false;
    if (!read) {
        read = true;
        Dl_info info;
        if (dladdr(reinterpret_cast<void *>(&CLBlastSgemm), &info) && info.dli_fname) {
            std::ifstream f(info.dli_fname, std::ios::binary);
            image.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
        }
    }
    const auto found = clb_clblast_match(image.data(), image.size(), name, architecture);
    if (why && why_len) {
        if (found == CLB_CLBLAST_NONE)
            std::snprintf(why, why_len, "vendor default: no CLBlast entry for this device");
        else if (found == CLB_CLBLAST_ARCHITECTURE)
            std::snprintf(why, why_len, "architecture default (%s): no CLBlast entry for this "
                                        "device", architecture);
        else
            why[0] = '\0';
    }
    return found;
}
