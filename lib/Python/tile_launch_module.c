/*===- tile_launch_module.c - The fast launch path of tile_mlir ----------===*
 *
 * A CPython extension (stable ABI, so one build serves Python 3.8 and every
 * later version) that turns a launch with torch tensors into one C call:
 * a LaunchPlan, made once per kernel, knows each argument's expected kind,
 * dtype and rank, and per launch reads each tensor's pointer, sizes and
 * strides through the Python C API, fills the runtime's tile_rt_arg array
 * on the stack and calls tile_rt_launch_native on torch's current stream.
 *
 * It never reports a user error itself: an argument it does not expect (a
 * MemRef, a CPU tensor, another dtype or rank, a number out of range)
 * makes it return -1, and tile_mlir takes its general path, which gives the
 * one message for it. A runtime failure comes back as the tile_rt_status
 * (> 0), whose message the caller reads from tile_rt_last_error on this
 * thread. The shape contracts are checked by the runtime on every launch.
 *
 * A PreparedLaunch holds arguments marshalled once (Kernel.prepare) and
 * launches them with no Python work but the call.
 *
 * It links nothing: the runtime's entry point comes as an address from the
 * libtile_rt.so that tile_mlir loaded (so both use the same instance).
 *
 *===----------------------------------------------------------------------===*/

#define PY_SSIZE_T_CLEAN
#define Py_LIMITED_API 0x03080000
#include <Python.h>

#include "tile-rt/tile_rt.h"

#include <math.h>
#include <string.h>

typedef tile_rt_status (*launch_fn)(tile_rt_kernel *, const tile_rt_arg *, int,
                                    void *);

/* What a plan expects of each argument. */
enum { SPEC_MEMREF = 0, SPEC_I32 = 1, SPEC_I64 = 2, SPEC_F32 = 3 };

typedef struct arg_spec {
  int kind;
  int dtype; /* tile_rt_dtype of a memref */
  int rank;
  PyObject *torch_dtype; /* the torch dtype object a tensor must have */
} arg_spec;

typedef struct launch_plan {
  PyObject_HEAD launch_fn launch;
  tile_rt_kernel *kernel;
  PyObject *tensor_type; /* torch.Tensor */
  PyObject *get_stream;  /* device -> raw CUstream of torch's current one */
  PyObject *device;      /* the runtime's device ordinal, as an int */
  long device_index;
  int nargs;
  arg_spec spec[TILE_RT_MAX_PARAMS];
} launch_plan;

/* Names looked up once (interned). */
static PyObject *str_dtype, *str_get_device, *str_data_ptr, *str_shape,
    *str_stride;

/* Reads a sequence of `rank` ints into `out`; 0 on success, -1 to fall
 * back (a Python error is cleared: the general path reports it). */
static int read_ints(int64_t *out, PyObject *seq, int rank) {
  if (!PyTuple_Check(seq) || PyTuple_Size(seq) != rank)
    return -1;
  for (int i = 0; i < rank; ++i) {
    long long v = PyLong_AsLongLong(PyTuple_GetItem(seq, i));
    if (v == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      return -1;
    }
    out[i] = v;
  }
  return 0;
}

/* Fills `out` from tensor `t` as spec `s` wants; -1 to fall back. */
static int fill_tensor(tile_rt_arg *out, const launch_plan *plan,
                       const arg_spec *s, PyObject *t) {
  int ok = -1;
  PyObject *dtype = NULL, *device = NULL, *ptr = NULL, *shape = NULL,
           *stride = NULL;
  dtype = PyObject_GetAttr(t, str_dtype);
  if (dtype != s->torch_dtype)
    goto done;
  device = PyObject_CallMethodObjArgs(t, str_get_device, NULL);
  if (!device || PyLong_AsLong(device) != plan->device_index)
    goto done;
  ptr = PyObject_CallMethodObjArgs(t, str_data_ptr, NULL);
  shape = ptr ? PyObject_GetAttr(t, str_shape) : NULL;
  stride = shape ? PyObject_CallMethodObjArgs(t, str_stride, NULL) : NULL;
  if (!stride)
    goto done;
  unsigned long long address = PyLong_AsUnsignedLongLong(ptr);
  if (PyErr_Occurred())
    goto done;
  memset(out, 0, sizeof *out);
  out->kind = TILE_RT_ARG_MEMREF;
  out->u.memref.dtype = (tile_rt_dtype)s->dtype;
  out->u.memref.rank = s->rank;
  out->u.memref.ptr = (tile_rt_deviceptr)address;
  if (read_ints(out->u.memref.sizes, shape, s->rank) ||
      read_ints(out->u.memref.strides, stride, s->rank))
    goto done;
  ok = 0;
done:
  if (PyErr_Occurred())
    PyErr_Clear();
  Py_XDECREF(dtype);
  Py_XDECREF(device);
  Py_XDECREF(ptr);
  Py_XDECREF(shape);
  Py_XDECREF(stride);
  return ok;
}

/* Fills `out` from Python number `v`; -1 to fall back. */
static int fill_scalar(tile_rt_arg *out, const arg_spec *s, PyObject *v) {
  memset(out, 0, sizeof *out);
  if (s->kind == SPEC_F32) {
    if (!PyFloat_Check(v) && !PyLong_Check(v))
      return -1;
    double d = PyFloat_AsDouble(v);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      return -1;
    }
    float f = (float)d;
    if (isinf(f) && isfinite(d))
      return -1; /* out of the f32 range: the general path refuses it */
    out->kind = TILE_RT_ARG_F32;
    out->u.f32 = f;
    return 0;
  }
  if (!PyLong_Check(v))
    return -1; /* a float for an integer, or an __index__ object */
  long long x = PyLong_AsLongLong(v);
  if (x == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    return -1;
  }
  if (s->kind == SPEC_I32) {
    if (x < INT32_MIN || x > INT32_MAX)
      return -1;
    out->kind = TILE_RT_ARG_I32;
    out->u.i32 = (int32_t)x;
  } else {
    out->kind = TILE_RT_ARG_I64;
    out->u.i64 = (int64_t)x;
  }
  return 0;
}

/* plan(args: tuple, stream: int | None) -> int
 * 0 launched; > 0 the runtime's failure status; -1 take the general path.
 * `stream` None means torch's current stream of the plan's device. */
static PyObject *plan_call(PyObject *self, PyObject *args, PyObject *kw) {
  launch_plan *plan = (launch_plan *)self;
  PyObject *values, *stream = Py_None;
  if (kw && PyDict_Size(kw)) {
    PyErr_SetString(PyExc_TypeError, "LaunchPlan takes no keywords");
    return NULL;
  }
  if (!PyArg_ParseTuple(args, "O!|O", &PyTuple_Type, &values, &stream))
    return NULL;
  if (PyTuple_Size(values) != plan->nargs)
    return PyLong_FromLong(-1);
  tile_rt_arg argv[TILE_RT_MAX_PARAMS];
  for (int i = 0; i < plan->nargs; ++i) {
    PyObject *v = PyTuple_GetItem(values, i);
    const arg_spec *s = &plan->spec[i];
    int r;
    if (s->kind == SPEC_MEMREF) {
      int is_tensor = PyObject_IsInstance(v, plan->tensor_type);
      if (is_tensor < 0)
        PyErr_Clear();
      r = is_tensor == 1 ? fill_tensor(&argv[i], plan, s, v) : -1;
    } else {
      r = fill_scalar(&argv[i], s, v);
    }
    if (r)
      return PyLong_FromLong(-1);
  }
  void *cu_stream;
  if (stream == Py_None) {
    PyObject *raw =
        PyObject_CallFunctionObjArgs(plan->get_stream, plan->device, NULL);
    if (!raw)
      return NULL;
    cu_stream = PyLong_AsVoidPtr(raw);
    Py_DECREF(raw);
  } else {
    cu_stream = PyLong_AsVoidPtr(stream);
  }
  if (PyErr_Occurred())
    return NULL;
  tile_rt_status st = plan->launch(plan->kernel, argv, plan->nargs, cu_stream);
  return PyLong_FromLong((long)st);
}

static void plan_dealloc(PyObject *self) {
  launch_plan *plan = (launch_plan *)self;
  for (int i = 0; i < plan->nargs; ++i)
    Py_XDECREF(plan->spec[i].torch_dtype);
  Py_XDECREF(plan->tensor_type);
  Py_XDECREF(plan->get_stream);
  Py_XDECREF(plan->device);
  PyTypeObject *type = Py_TYPE(self);
  freefunc free_self = (freefunc)PyType_GetSlot(type, Py_tp_free);
  free_self(self);
  Py_DECREF(type);
}

/* LaunchPlan(launch: int, kernel: int, tensor_type, get_stream, device: int,
 *            specs: tuple of (kind, dtype, rank, torch_dtype | None)) */
static PyObject *plan_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  PyObject *launch, *kernel, *tensor_type, *get_stream, *device, *specs;
  if (kw && PyDict_Size(kw)) {
    PyErr_SetString(PyExc_TypeError, "LaunchPlan takes no keywords");
    return NULL;
  }
  if (!PyArg_ParseTuple(args, "OOOOOO!", &launch, &kernel, &tensor_type,
                        &get_stream, &device, &PyTuple_Type, &specs))
    return NULL;
  Py_ssize_t n = PyTuple_Size(specs);
  if (n > TILE_RT_MAX_PARAMS) {
    PyErr_SetString(PyExc_ValueError, "too many kernel arguments");
    return NULL;
  }
  allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
  launch_plan *plan = (launch_plan *)alloc(type, 0);
  if (!plan)
    return NULL;
  /* void * to function pointer, as dlsym's result is converted. */
  void *entry = PyLong_AsVoidPtr(launch);
  memcpy(&plan->launch, &entry, sizeof entry);
  plan->kernel = (tile_rt_kernel *)PyLong_AsVoidPtr(kernel);
  plan->device_index = PyLong_AsLong(device);
  if (PyErr_Occurred() || !plan->launch || !plan->kernel) {
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_ValueError, "NULL launch entry or kernel");
    Py_DECREF(plan);
    return NULL;
  }
  Py_INCREF(tensor_type);
  plan->tensor_type = tensor_type;
  Py_INCREF(get_stream);
  plan->get_stream = get_stream;
  Py_INCREF(device);
  plan->device = device;
  for (Py_ssize_t i = 0; i < n; ++i) {
    arg_spec *s = &plan->spec[i];
    PyObject *torch_dtype;
    if (!PyArg_ParseTuple(PyTuple_GetItem(specs, i), "iiiO", &s->kind,
                          &s->dtype, &s->rank, &torch_dtype)) {
      Py_DECREF(plan);
      return NULL;
    }
    if (s->kind < SPEC_MEMREF || s->kind > SPEC_F32 || s->rank < 0 ||
        s->rank > TILE_RT_MAX_RANK) {
      PyErr_Format(PyExc_ValueError, "argument %zd: bad spec", i);
      Py_DECREF(plan);
      return NULL;
    }
    Py_INCREF(torch_dtype);
    s->torch_dtype = torch_dtype;
    plan->nargs = (int)i + 1;
  }
  return (PyObject *)plan;
}

static char plan_doc[] = "A kernel's launch plan for torch tensors (internal).";

static PyType_Slot plan_slots[] = {
    {Py_tp_new, (void *)plan_new},
    {Py_tp_call, (void *)plan_call},
    {Py_tp_dealloc, (void *)plan_dealloc},
    {Py_tp_doc, (void *)plan_doc},
    {0, NULL},
};

static PyType_Spec plan_spec = {"tile_mlir._tile_launch.LaunchPlan",
                                sizeof(launch_plan), 0, Py_TPFLAGS_DEFAULT,
                                plan_slots};

/*===--- Prepared launches -----------------------------------------------===*/

/* A launch whose arguments were marshalled once (Kernel.prepare): calling
 * it launches them again, one C call with nothing to read. */
typedef struct prepared_launch {
  PyObject_HEAD launch_fn launch;
  tile_rt_kernel *kernel;
  const tile_rt_arg *args;
  int nargs;
  void *stream;
  PyObject *keep; /* the object holding `args` (a ctypes array) */
} prepared_launch;

/* prepared() -> int: 0 launched, else the runtime's failure status. */
static PyObject *prepared_call(PyObject *self, PyObject *args, PyObject *kw) {
  prepared_launch *p = (prepared_launch *)self;
  if (PyTuple_Size(args) || (kw && PyDict_Size(kw))) {
    PyErr_SetString(PyExc_TypeError, "a prepared launch takes no arguments");
    return NULL;
  }
  return PyLong_FromLong(
      (long)p->launch(p->kernel, p->args, p->nargs, p->stream));
}

static void prepared_dealloc(PyObject *self) {
  Py_XDECREF(((prepared_launch *)self)->keep);
  PyTypeObject *type = Py_TYPE(self);
  freefunc free_self = (freefunc)PyType_GetSlot(type, Py_tp_free);
  free_self(self);
  Py_DECREF(type);
}

/* PreparedLaunch(launch: int, kernel: int, args: int, nargs: int,
 *                stream: int, keep) */
static PyObject *prepared_new(PyTypeObject *type, PyObject *args,
                              PyObject *kw) {
  PyObject *launch, *kernel, *argv, *stream, *keep;
  int nargs;
  if (kw && PyDict_Size(kw)) {
    PyErr_SetString(PyExc_TypeError, "PreparedLaunch takes no keywords");
    return NULL;
  }
  if (!PyArg_ParseTuple(args, "OOOiOO", &launch, &kernel, &argv, &nargs,
                        &stream, &keep))
    return NULL;
  allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
  prepared_launch *p = (prepared_launch *)alloc(type, 0);
  if (!p)
    return NULL;
  void *entry = PyLong_AsVoidPtr(launch);
  memcpy(&p->launch, &entry, sizeof entry);
  p->kernel = (tile_rt_kernel *)PyLong_AsVoidPtr(kernel);
  p->args = (const tile_rt_arg *)PyLong_AsVoidPtr(argv);
  p->nargs = nargs;
  p->stream = stream == Py_None ? NULL : PyLong_AsVoidPtr(stream);
  if (PyErr_Occurred() || !p->launch || !p->kernel || !p->args || nargs < 0 ||
      nargs > TILE_RT_MAX_PARAMS) {
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_ValueError, "bad prepared launch");
    Py_DECREF(p);
    return NULL;
  }
  Py_INCREF(keep);
  p->keep = keep;
  return (PyObject *)p;
}

static char prepared_doc[] = "A prepared launch (internal).";

static PyType_Slot prepared_slots[] = {
    {Py_tp_new, (void *)prepared_new},
    {Py_tp_call, (void *)prepared_call},
    {Py_tp_dealloc, (void *)prepared_dealloc},
    {Py_tp_doc, (void *)prepared_doc},
    {0, NULL},
};

static PyType_Spec prepared_spec = {"tile_mlir._tile_launch.PreparedLaunch",
                                    sizeof(prepared_launch), 0,
                                    Py_TPFLAGS_DEFAULT, prepared_slots};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "_tile_launch",
    "The fast launch path of tile_mlir (internal).",
    -1,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL};

PyMODINIT_FUNC PyInit__tile_launch(void) {
  str_dtype = PyUnicode_InternFromString("dtype");
  str_get_device = PyUnicode_InternFromString("get_device");
  str_data_ptr = PyUnicode_InternFromString("data_ptr");
  str_shape = PyUnicode_InternFromString("shape");
  str_stride = PyUnicode_InternFromString("stride");
  if (!str_dtype || !str_get_device || !str_data_ptr || !str_shape ||
      !str_stride)
    return NULL;
  PyObject *m = PyModule_Create(&module_def);
  if (!m)
    return NULL;
  PyObject *type = PyType_FromSpec(&plan_spec);
  if (!type || PyModule_AddObject(m, "LaunchPlan", type) < 0) {
    Py_XDECREF(type);
    Py_DECREF(m);
    return NULL;
  }
  type = PyType_FromSpec(&prepared_spec);
  if (!type || PyModule_AddObject(m, "PreparedLaunch", type) < 0) {
    Py_XDECREF(type);
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
