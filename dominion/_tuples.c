/* dominion._tuples: one function the compiled engine uses to build its NamedTuples.

   new(cls, fields) returns what ``tuple.__new__(cls, fields)`` returns, an instance of
   ``cls`` (a subclass of tuple) holding the items of ``fields`` (a tuple, or any iterable).
   Called from compiled code, ``tuple.__new__`` goes through a generic type call: an argument
   tuple, a slice of it, argument parsing and a copy, about 850 instructions, some 12% of a
   compiled simulation (callgrind, 2026-11-27); this allocates the instance and copies the
   items. The pure engine does not use it (dominion/_native.py, `tuple_maker`). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *
tuples_new(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "new() takes 2 arguments (cls, fields), not %zd", nargs);
        return NULL;
    }
    PyObject *cls = args[0], *fields = args[1];
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "new(cls, fields): cls must be a subclass of tuple");
        return NULL;
    }
    PyObject *items = PySequence_Tuple(fields);   /* a tuple itself, or any iterable's items */
    if (items == NULL) {
        return NULL;
    }
    PyTypeObject *type = (PyTypeObject *)cls;
    if (type == &PyTuple_Type) {
        return items;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    PyObject *made = type->tp_alloc(type, n);   /* as tuple.__new__ does for a subclass */
    if (made != NULL) {
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *item = PyTuple_GET_ITEM(items, i);
            Py_INCREF(item);
            PyTuple_SET_ITEM(made, i, item);
        }
    }
    Py_DECREF(items);
    return made;
}

static PyMethodDef tuples_methods[] = {
    {"new", (PyCFunction)(void (*)(void))tuples_new, METH_FASTCALL,
     "new(cls, fields): tuple.__new__(cls, fields), for a subclass of tuple, without its "
     "generic call."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef tuples_module = {
    PyModuleDef_HEAD_INIT, "dominion._tuples",
    "Builds the compiled engine's NamedTuples from their fields.", -1, tuples_methods,
};

PyMODINIT_FUNC
PyInit__tuples(void)
{
    return PyModule_Create(&tuples_module);
}
