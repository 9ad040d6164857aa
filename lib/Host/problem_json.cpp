//===- problem_json.cpp - A problem read from JSON
//-------------------------===//
//
// llvm::json parses; this file maps the object onto tool_problem_desc and
// names the field of every error.
//
//===----------------------------------------------------------------------===//

extern "C" {
#include "problem_json.h"
#include "host_util.h"
}

#include "llvm/Support/JSON.h"

#include <cmath>
#include <cstdio>
#include <string>

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

/// The deepest nesting of arrays and objects a problem may have: its own
/// needs three levels. llvm::json::parse recurses once per level, so a
/// deeper text is refused before it is parsed, not by a stack overflow.
constexpr int kMaxNesting = 32;

/// Whether `text` nests arrays and objects at most kMaxNesting deep
/// (brackets inside strings do not count).
bool shallowEnough(llvm::StringRef text) {
  int depth = 0;
  bool inString = false, escaped = false;
  for (char c : text) {
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxNesting)
        return false;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return true;
}

/// Whether `s` holds no NUL, which would cut a C string short.
bool noNul(llvm::StringRef s) { return s.find('\0') == llvm::StringRef::npos; }

/// Collects the first error, with the path of the field it is about.
struct Reader {
  const char *what;
  bool failed = false;

  bool fail(const std::string &where, const std::string &message) {
    if (!failed)
      tool_fail("%s: %s%s%s", what, where.c_str(), where.empty() ? "" : ": ",
                message.c_str());
    failed = true;
    return false;
  }

  /// Fails on a key of `o` not among `known`.
  bool onlyKeys(const Object &o, const std::string &where,
                std::initializer_list<llvm::StringRef> known) {
    for (const auto &kv : o) {
      bool ok = false;
      for (llvm::StringRef k : known)
        ok |= llvm::StringRef(kv.first) == k;
      if (!ok) {
        std::string list;
        for (llvm::StringRef k : known)
          list += (list.empty() ? "\"" : ", \"") + k.str() + "\"";
        return fail(where, "unknown key \"" + llvm::StringRef(kv.first).str() +
                               "\" (expected " + list + ")");
      }
    }
    return true;
  }

  bool number(const Object &o, llvm::StringRef key, const std::string &where,
              double &out) {
    const Value *v = o.get(key);
    if (!v)
      return true;
    std::optional<double> d = v->getAsNumber();
    if (!d || !std::isfinite(*d))
      return fail(where + "." + key.str(), "expected a finite number");
    out = *d;
    return true;
  }

  /// A list of at most `max` finite numbers.
  bool numbers(const Value &v, const std::string &where, double *out,
               size_t min, size_t max, size_t &count) {
    const Array *a = v.getAsArray();
    if (!a || a->size() < min || a->size() > max)
      return fail(where, "expected a list of " + std::to_string(min) +
                             (min == max ? "" : " to " + std::to_string(max)) +
                             " numbers");
    count = a->size();
    for (size_t i = 0; i < count; ++i) {
      std::optional<double> d = (*a)[i].getAsNumber();
      if (!d || !std::isfinite(*d))
        return fail(where + "[" + std::to_string(i) + "]",
                    "expected a finite number");
      out[i] = *d;
    }
    return true;
  }

  bool arg(tool_problem_desc *d, const Value &v, size_t index) {
    std::string where = "args[" + std::to_string(index) + "]";
    const Object *o = v.getAsObject();
    if (!o)
      return fail(where, "expected an object with a \"shape\" or a \"value\"");
    if (!onlyKeys(*o, where,
                  {"name", "shape", "output", "range", "row_shift", "value"}))
      return false;
    std::string name = "arg" + std::to_string(index);
    if (const Value *n = o->get("name")) {
      std::optional<llvm::StringRef> s = n->getAsString();
      if (!s || s->empty() || s->size() >= sizeof d->args[0].name || !noNul(*s))
        return fail(where + ".name",
                    "expected a name of 1 to " +
                        std::to_string(sizeof d->args[0].name - 1) +
                        " characters, none of them NUL");
      name = s->str();
    }
    const Value *shape = o->get("shape"), *value = o->get("value");
    if ((shape != nullptr) == (value != nullptr))
      return fail(where, "give a tensor's \"shape\" or a scalar's \"value\"");
    if (value) {
      for (llvm::StringRef k : {"output", "range", "row_shift"})
        if (o->get(k))
          return fail(where + "." + k.str(), "a scalar has only a value");
      double x = 0;
      if (!number(*o, "value", where, x))
        return false;
      return tool_problem_add_scalar(d, name.c_str(), x) != nullptr ||
             fail(where, "too many arguments");
    }
    double dims[TILE_RT_MAX_RANK];
    size_t rank = 0;
    if (!numbers(*shape, where + ".shape", dims, 1, TILE_RT_MAX_RANK, rank))
      return false;
    int64_t sizes[TILE_RT_MAX_RANK];
    for (size_t i = 0; i < rank; ++i) {
      if (dims[i] != std::floor(dims[i]) || dims[i] < 1 ||
          dims[i] > (double)TOOL_MAX_DIM)
        return fail(where + ".shape[" + std::to_string(i) + "]",
                    "expected an integer in [1, " +
                        std::to_string(TOOL_MAX_DIM) + "]");
      sizes[i] = (int64_t)dims[i];
    }
    tool_arg_role role = TOOL_ROLE_UNSAID;
    if (const Value *out = o->get("output")) {
      std::optional<bool> b = out->getAsBoolean();
      if (!b)
        return fail(where + ".output", "expected true or false");
      role = *b ? TOOL_ROLE_OUTPUT : TOOL_ROLE_INPUT;
    }
    double range[2] = {-1.0, 1.0};
    size_t two = 0;
    if (const Value *r = o->get("range")) {
      if (!numbers(*r, where + ".range", range, 2, 2, two))
        return false;
      if (!(range[0] < range[1]))
        return fail(where + ".range", "expected [lo, hi] with lo < hi");
    }
    if (role == TOOL_ROLE_OUTPUT && (o->get("range") || o->get("row_shift")))
      return fail(where, "an output has no \"range\" or \"row_shift\"");
    tool_arg_desc *a = tool_problem_add_tensor(d, name.c_str(), role, (int)rank,
                                               sizes, range[0], range[1]);
    if (!a)
      return fail(where, "not a tensor a problem can hold");
    if (const Value *s = o->get("row_shift")) {
      size_t count = 0;
      if (!numbers(*s, where + ".row_shift", a->shift, 1, TOOL_MAX_SHIFTS,
                   count))
        return false;
      a->nshifts = (int)count;
    }
    return true;
  }
};

} // namespace

extern "C" int tool_problem_from_json(tool_problem_desc *d, const char *text,
                                      size_t n, const char *what) {
  tool_problem_desc_init(d, "problem");
  Reader r{what};
  if (!shallowEnough(llvm::StringRef(text, n))) {
    r.fail("", "nested more than " + std::to_string(kMaxNesting) +
                   " levels deep; a problem needs three");
    return 1;
  }
  llvm::Expected<Value> parsed = llvm::json::parse(llvm::StringRef(text, n));
  if (!parsed) {
    std::string message = llvm::toString(parsed.takeError());
    r.fail("", "not JSON: " + message);
    return 1;
  }
  const Object *o = parsed->getAsObject();
  if (!o)
    return r.fail("", "expected an object with \"args\""), 1;
  if (!r.onlyKeys(*o, "",
                  {"args", "reference", "rtol", "rtol_bf16", "flops", "bytes"}))
    return 1;
  const Array *args = o->getArray("args");
  if (!args || args->empty())
    return r.fail("args", "expected a list of the kernel's arguments"), 1;
  if (args->size() > TOOL_MAX_ARGS)
    return r.fail("args",
                  "at most " + std::to_string(TOOL_MAX_ARGS) + " arguments"),
           1;
  for (size_t i = 0; i < args->size(); ++i)
    if (!r.arg(d, (*args)[i], i))
      return 1;
  if (const Value *ref = o->get("reference")) {
    std::optional<llvm::StringRef> s = ref->getAsString();
    if (!s || s->empty() || s->size() >= sizeof d->reference_kernel ||
        !noNul(*s))
      return r.fail("reference", "expected a kernel name"), 1;
    std::snprintf(d->reference_kernel, sizeof d->reference_kernel, "%s",
                  s->str().c_str());
  }
  if (!r.number(*o, "rtol", "", d->rtol) ||
      !r.number(*o, "rtol_bf16", "", d->rtol_bf16) ||
      !r.number(*o, "flops", "", d->flops) ||
      !r.number(*o, "bytes", "", d->bytes))
    return 1;
  if (!(d->rtol > 0) || !(d->rtol_bf16 > 0))
    return r.fail("rtol", "expected a positive threshold"), 1;
  if (d->flops < 0 || d->bytes < 0 || (d->flops > 0 && d->bytes > 0))
    return r.fail("", "give one of \"flops\" and \"bytes\", positive"), 1;
  if (tool_problem_text(d, d->key, sizeof d->key) != 0)
    return r.fail("", "the description is too long for a tuning key"), 1;
  tool_problem_label(d, d->label, sizeof d->label);
  return 0;
}

extern "C" int tool_problem_from_json_file(tool_problem_desc *d,
                                           const char *path) {
  tool_buffer text = {nullptr, 0, 0};
  if (tool_read_file(path, &text) != 0)
    return 1;
  int rc =
      tool_problem_from_json(d, text.data ? text.data : "", text.size, path);
  tool_buffer_free(&text);
  return rc;
}
