/*===- tile_rt_cubin.c - Kernel resources read from the cubin itself ------===*
 *
 * A strict, bounds-checked reader of the parts of a CUDA ELF image (cubin)
 * that say what a kernel uses, so that registers, shared memory and stack can
 * be reported without a GPU or a driver:
 *
 * - `.symtab`: the kernel's FUNC symbol (its index keys the records below);
 * - `.nv.info`: module-wide attribute records, several keyed by symbol index
 *   (EIATTR_REGCOUNT, EIATTR_FRAME_SIZE, EIATTR_MIN_STACK_SIZE,
 *   EIATTR_MAX_STACK_SIZE, payload {u32 symbol, u32 value});
 * - `.nv.info.<kernel>`: the kernel's own records (parameter bytes, barriers,
 *   thread bounds; the keyed ones may appear here too);
 * - `.nv.shared.<kernel>`: a NOBITS section whose size is the static shared
 *   memory, and in sm_90+ images (those with `.nv.shared.reserved.0`) the
 *   1 KB the driver reserves at the start of every block's shared memory.
 *
 * An attribute record is 1 byte format, 1 byte attribute, then a u16: the
 * value for EIFMT_NVAL (0x01, none), EIFMT_BVAL (0x02, a byte) and
 * EIFMT_HVAL (0x03, a half word), or for EIFMT_SVAL (0x04) the size of the
 * payload that follows. Everything read is bounds-checked against the image:
 * a malformed image is a TILE_RT_ERROR_PARSE, never a read out of bounds.
 *
 *===----------------------------------------------------------------------===*/

#include "tile_rt_internal.h"

#include <stdio.h>
#include <string.h>

/* ELF constants (the System V ABI; LLVM's BinaryFormat/ELF.h for CUDA). */
#define RT_ELF_HEADER_BYTES 64
#define RT_ELF_SECTION_BYTES 64
#define RT_ELF_SYMBOL_BYTES 24
#define RT_ELFCLASS64 2
#define RT_ELFDATA2LSB 1
#define RT_EM_CUDA 190
/* e_ident[EI_ABIVERSION]: where e_flags keeps the SM. */
#define RT_ELFABIVERSION_CUDA_V1 7 /* e_flags & 0xff */
#define RT_ELFABIVERSION_CUDA_V2 8 /* (e_flags >> 8) & 0xff */
#define RT_SHT_SYMTAB 2
#define RT_SHT_STRTAB 3
#define RT_SHT_NOBITS 8
#define RT_SHN_XINDEX 0xffff
#define RT_STT_FUNC 2
#define RT_STB_GLOBAL 1

/* .nv.info record formats and the attributes read here. */
#define RT_EIFMT_NVAL 0x01
#define RT_EIFMT_BVAL 0x02
#define RT_EIFMT_HVAL 0x03
#define RT_EIFMT_SVAL 0x04
#define RT_EIATTR_MAX_THREADS 0x05
#define RT_EIATTR_REQNTID 0x10
#define RT_EIATTR_FRAME_SIZE 0x11
#define RT_EIATTR_MIN_STACK_SIZE 0x12
#define RT_EIATTR_CBANK_PARAM_SIZE 0x19
#define RT_EIATTR_MAX_STACK_SIZE 0x23
#define RT_EIATTR_REGCOUNT 0x2f
#define RT_EIATTR_NUM_BARRIERS 0x4c

/* The driver's per-block shared memory reservation that sm_90+ images lay
 * out at the start of each kernel's shared section
 * (CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK). */
#define RT_RESERVED_SMEM 1024
#define RT_RESERVED_SMEM_SECTION ".nv.shared.reserved.0"

/* Longest list of kernel names quoted in a NOT_FOUND message. */
#define RT_NAMES_BYTES 1024

typedef struct rt_elf {
  const unsigned char *data;
  size_t size;
  uint64_t shoff;
  uint32_t shnum;
  uint32_t shstrndx;
  int sm;
} rt_elf;

typedef struct rt_section {
  uint32_t index;
  uint32_t name;
  uint32_t type;
  uint64_t offset, size;
  uint32_t link;
  uint64_t entsize;
} rt_section;

/* What the attribute walk collects for one kernel. */
typedef struct rt_attrs {
  uint32_t symbol; /* the kernel's symbol index */
  uint32_t nsymbols;
  tile_rt_kernel_resources *out;
  uint32_t min_stack, max_stack;
  int have_regcount, have_reqntid;
} rt_attrs;

/*===--- Little-endian reads (the caller has checked the bounds) ----------===*/

static uint16_t rt_u16(const unsigned char *p) {
  return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t rt_u32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

static uint64_t rt_u64(const unsigned char *p) {
  return (uint64_t)rt_u32(p) | (uint64_t)rt_u32(p + 4) << 32;
}

/* Whether [offset, offset + bytes) lies within `size` bytes. */
static int rt_in_bounds(uint64_t offset, uint64_t bytes, size_t size) {
  return offset <= size && bytes <= (uint64_t)size - offset;
}

/*===--- Header and sections ----------------------------------------------===*/

/* Section `index` of the table, whose bounds rt_elf_open checked. */
static void rt_section_at(rt_section *s, const rt_elf *elf, uint32_t index) {
  const unsigned char *h =
      elf->data + elf->shoff + (uint64_t)index * RT_ELF_SECTION_BYTES;
  s->index = index;
  s->name = rt_u32(h);
  s->type = rt_u32(h + 4);
  s->offset = rt_u64(h + 24);
  s->size = rt_u64(h + 32);
  s->link = rt_u32(h + 40);
  s->entsize = rt_u64(h + 56);
}

static tile_rt_status rt_elf_open(rt_elf *elf, const void *image, size_t size) {
  memset(elf, 0, sizeof *elf);
  const unsigned char *d = image;
  elf->data = d;
  elf->size = size;
  if (size < 4 || memcmp(d, "\177ELF", 4) != 0)
    return rt_error(TILE_RT_ERROR_PARSE,
                    "cubin: the %zu-byte image is not an ELF file (no ELF "
                    "magic; PTX text has no resources until the driver "
                    "compiles it)",
                    size);
  if (size < RT_ELF_HEADER_BYTES)
    return rt_error(TILE_RT_ERROR_PARSE,
                    "cubin: truncated ELF header (%zu of %d bytes)", size,
                    RT_ELF_HEADER_BYTES);
  if (d[4] != RT_ELFCLASS64 || d[5] != RT_ELFDATA2LSB)
    return rt_error(TILE_RT_ERROR_PARSE,
                    "cubin: ELF class %u, data encoding %u; only 64-bit "
                    "little-endian cubins (2, 1) are read",
                    d[4], d[5]);
  uint16_t machine = rt_u16(d + 18);
  if (machine != RT_EM_CUDA)
    return rt_error(TILE_RT_ERROR_PARSE,
                    "cubin: e_machine is %u, not EM_CUDA (%d): not a CUDA "
                    "image",
                    machine, RT_EM_CUDA);
  uint32_t flags = rt_u32(d + 48);
  if (d[8] == RT_ELFABIVERSION_CUDA_V2)
    elf->sm = (int)((flags >> 8) & 0xff);
  else if (d[8] == RT_ELFABIVERSION_CUDA_V1)
    elf->sm = (int)(flags & 0xff);
  elf->shoff = rt_u64(d + 40);
  uint16_t shentsize = rt_u16(d + 58);
  elf->shnum = rt_u16(d + 60);
  elf->shstrndx = rt_u16(d + 62);
  if (elf->shoff == 0)
    return rt_error(TILE_RT_ERROR_PARSE, "cubin: no section header table");
  if (shentsize != RT_ELF_SECTION_BYTES)
    return rt_error(TILE_RT_ERROR_PARSE,
                    "cubin: section headers of %u bytes, expected %d",
                    shentsize, RT_ELF_SECTION_BYTES);
  /* Section 0 must be there to read the extended counts from. */
  if (!rt_in_bounds(elf->shoff, RT_ELF_SECTION_BYTES, size))
    return rt_error(TILE_RT_ERROR_PARSE,
                    "cubin: section header table at offset %llu is past the "
                    "end of the %zu-byte image",
                    (unsigned long long)elf->shoff, size);
  rt_section zero;
  rt_section_at(&zero, elf, 0);
  if (elf->shnum == 0) { /* more than 0xff00 sections: count in section 0 */
    if (zero.size == 0 || zero.size > UINT32_MAX)
      return rt_error(TILE_RT_ERROR_PARSE,
                      "cubin: bad extended section count %llu",
                      (unsigned long long)zero.size);
    elf->shnum = (uint32_t)zero.size;
  }
  if (elf->shstrndx == RT_SHN_XINDEX)
    elf->shstrndx = zero.link;
  if (!rt_in_bounds(elf->shoff, (uint64_t)elf->shnum * RT_ELF_SECTION_BYTES,
                    size))
    return rt_error(TILE_RT_ERROR_PARSE,
                    "cubin: section header table (offset %llu, %u entries "
                    "of %d bytes) runs past the end of the %zu-byte image",
                    (unsigned long long)elf->shoff, elf->shnum,
                    RT_ELF_SECTION_BYTES, size);
  if (elf->shstrndx == 0 || elf->shstrndx >= elf->shnum)
    return rt_error(TILE_RT_ERROR_PARSE,
                    "cubin: section name table index %u is not a section "
                    "(%u sections)",
                    elf->shstrndx, elf->shnum);
  return TILE_RT_SUCCESS;
}

/* The bytes of section `s` (not NOBITS), checked to lie within the image. */
static tile_rt_status rt_section_data(const unsigned char **out,
                                      const rt_elf *elf, const rt_section *s,
                                      const char *what) {
  if (s->type == RT_SHT_NOBITS || !rt_in_bounds(s->offset, s->size, elf->size))
    return rt_error(
        TILE_RT_ERROR_PARSE,
        "cubin: %s (section %u, offset %llu, %llu bytes) %s", what, s->index,
        (unsigned long long)s->offset, (unsigned long long)s->size,
        s->type == RT_SHT_NOBITS ? "has no bytes in the file (NOBITS)"
                                 : "runs past the end of the image");
  *out = elf->data + s->offset;
  return TILE_RT_SUCCESS;
}

/* The NUL-terminated string at `offset` of string table section `table`. */
static tile_rt_status rt_string(const char **out, const rt_elf *elf,
                                const rt_section *table, uint32_t offset,
                                const char *what) {
  const unsigned char *bytes;
  tile_rt_status st = rt_section_data(&bytes, elf, table, what);
  if (st != TILE_RT_SUCCESS)
    return st;
  if (offset >= table->size ||
      !memchr(bytes + offset, '\0', (size_t)(table->size - offset)))
    return rt_error(TILE_RT_ERROR_PARSE,
                    "cubin: %s: name at offset %u of a %llu-byte string table "
                    "is %s",
                    what, offset, (unsigned long long)table->size,
                    offset >= table->size ? "out of bounds"
                                          : "not NUL-terminated");
  *out = (const char *)bytes + offset;
  return TILE_RT_SUCCESS;
}

static tile_rt_status rt_section_name(const char **out, const rt_elf *elf,
                                      const rt_section *s) {
  rt_section names;
  rt_section_at(&names, elf, elf->shstrndx);
  if (names.type != RT_SHT_STRTAB)
    return rt_error(TILE_RT_ERROR_PARSE,
                    "cubin: the section name table (section %u) has type %u, "
                    "not SHT_STRTAB",
                    names.index, names.type);
  return rt_string(out, elf, &names, s->name, "section name table");
}

/* The section named `name` into `*out`; 0 in *found when there is none. */
static tile_rt_status rt_find_section(rt_section *out, int *found,
                                      const rt_elf *elf, const char *name) {
  *found = 0;
  for (uint32_t i = 1; i < elf->shnum; ++i) {
    rt_section s;
    const char *n;
    rt_section_at(&s, elf, i);
    tile_rt_status st = rt_section_name(&n, elf, &s);
    if (st != TILE_RT_SUCCESS)
      return st;
    if (strcmp(n, name) == 0) {
      *out = s;
      *found = 1;
      return TILE_RT_SUCCESS;
    }
  }
  return TILE_RT_SUCCESS;
}

/*===--- The symbol table -------------------------------------------------===*/

static void rt_append_name(char *list, size_t room, const char *name) {
  size_t used = strlen(list);
  if (used + 1 >= room)
    return;
  snprintf(list + used, room - used, "%s%s", used ? ", " : "", name);
}

/* The index of FUNC symbol `kernel` and the number of symbols. A missing
 * symbol is NOT_FOUND, naming the global functions (the kernels) there are. */
static tile_rt_status rt_find_kernel(uint32_t *index, uint32_t *nsymbols,
                                     const rt_elf *elf, const char *kernel) {
  rt_section symtab;
  int found = 0;
  for (uint32_t i = 1; i < elf->shnum && !found; ++i) {
    rt_section_at(&symtab, elf, i);
    found = symtab.type == RT_SHT_SYMTAB;
  }
  if (!found)
    return rt_error(TILE_RT_ERROR_PARSE, "cubin: no symbol table");
  const unsigned char *syms;
  tile_rt_status st = rt_section_data(&syms, elf, &symtab, "the symbol table");
  if (st != TILE_RT_SUCCESS)
    return st;
  if (symtab.entsize != RT_ELF_SYMBOL_BYTES ||
      symtab.size % RT_ELF_SYMBOL_BYTES != 0)
    return rt_error(TILE_RT_ERROR_PARSE,
                    "cubin: symbol table of %llu bytes in entries of %llu; "
                    "expected a multiple of %d",
                    (unsigned long long)symtab.size,
                    (unsigned long long)symtab.entsize, RT_ELF_SYMBOL_BYTES);
  if (symtab.link == 0 || symtab.link >= elf->shnum)
    return rt_error(TILE_RT_ERROR_PARSE,
                    "cubin: the symbol table's string table index %u is not "
                    "a section",
                    symtab.link);
  rt_section strtab;
  rt_section_at(&strtab, elf, symtab.link);
  uint64_t count = symtab.size / RT_ELF_SYMBOL_BYTES;
  if (count > UINT32_MAX)
    return rt_error(TILE_RT_ERROR_PARSE, "cubin: too many symbols");
  char names[RT_NAMES_BYTES] = "";
  for (uint32_t i = 1; i < count; ++i) {
    const unsigned char *sym = syms + (uint64_t)i * RT_ELF_SYMBOL_BYTES;
    if ((sym[4] & 0xf) != RT_STT_FUNC)
      continue;
    int global = (sym[4] >> 4) == RT_STB_GLOBAL;
    const char *name;
    st = rt_string(&name, elf, &strtab, rt_u32(sym), "symbol names");
    if (st != TILE_RT_SUCCESS)
      return st;
    if (strcmp(name, kernel) == 0) {
      *index = i;
      *nsymbols = (uint32_t)count;
      return TILE_RT_SUCCESS;
    }
    if (global)
      rt_append_name(names, sizeof names, name);
  }
  return rt_error(TILE_RT_ERROR_NOT_FOUND,
                  "cubin: no kernel '%s' in the image (it has: %s)", kernel,
                  names[0] ? names : "no functions");
}

/*===--- Attribute records ------------------------------------------------===*/

static const char *rt_format_name(unsigned fmt) {
  switch (fmt) {
  case RT_EIFMT_NVAL:
    return "EIFMT_NVAL";
  case RT_EIFMT_BVAL:
    return "EIFMT_BVAL";
  case RT_EIFMT_HVAL:
    return "EIFMT_HVAL";
  case RT_EIFMT_SVAL:
    return "EIFMT_SVAL";
  }
  return "an unknown format";
}

/* One record: format, attribute, the u16 and the SVAL payload. */
typedef struct rt_record {
  const char *section;
  size_t offset;
  unsigned fmt, attr;
  uint16_t value;
  const unsigned char *payload;
  size_t payload_size;
} rt_record;

static tile_rt_status rt_record_error(const rt_record *r, const char *name,
                                      const char *expected) {
  return rt_error(TILE_RT_ERROR_PARSE,
                  "cubin: %s: %s record at offset %zu is %s with %zu payload "
                  "bytes; expected %s",
                  r->section, name, r->offset, rt_format_name(r->fmt),
                  r->payload_size, expected);
}

/* A {u32 symbol, u32 value} record: the value if it is the kernel's. */
static tile_rt_status rt_keyed(uint32_t *value, int *mine, const rt_record *r,
                               const char *name, const rt_attrs *a) {
  *mine = 0;
  if (r->fmt != RT_EIFMT_SVAL || r->payload_size != 8)
    return rt_record_error(r, name, "EIFMT_SVAL {u32 symbol, u32 value}");
  uint32_t symbol = rt_u32(r->payload);
  if (symbol == 0 || symbol >= a->nsymbols)
    return rt_error(TILE_RT_ERROR_PARSE,
                    "cubin: %s: %s record at offset %zu names symbol %u of "
                    "%u",
                    r->section, name, r->offset, symbol, a->nsymbols);
  *mine = symbol == a->symbol;
  *value = rt_u32(r->payload + 4);
  return TILE_RT_SUCCESS;
}

static tile_rt_status rt_apply(rt_attrs *a, const rt_record *r) {
  tile_rt_kernel_resources *out = a->out;
  uint32_t v = 0;
  int mine = 0;
  tile_rt_status st = TILE_RT_SUCCESS;
  switch (r->attr) {
  case RT_EIATTR_REGCOUNT:
    st = rt_keyed(&v, &mine, r, "EIATTR_REGCOUNT", a);
    if (st == TILE_RT_SUCCESS && mine) {
      if (v > 255)
        return rt_error(TILE_RT_ERROR_PARSE,
                        "cubin: %s: EIATTR_REGCOUNT of %u registers (at most "
                        "255)",
                        r->section, v);
      out->registers = (int)v;
      a->have_regcount = 1;
    }
    return st;
  case RT_EIATTR_FRAME_SIZE:
    st = rt_keyed(&v, &mine, r, "EIATTR_FRAME_SIZE", a);
    if (st == TILE_RT_SUCCESS && mine)
      out->frame_bytes = v;
    return st;
  case RT_EIATTR_MIN_STACK_SIZE:
    st = rt_keyed(&v, &mine, r, "EIATTR_MIN_STACK_SIZE", a);
    if (st == TILE_RT_SUCCESS && mine)
      a->min_stack = v;
    return st;
  case RT_EIATTR_MAX_STACK_SIZE:
    st = rt_keyed(&v, &mine, r, "EIATTR_MAX_STACK_SIZE", a);
    if (st == TILE_RT_SUCCESS && mine)
      a->max_stack = v;
    return st;
  case RT_EIATTR_CBANK_PARAM_SIZE:
    if (r->fmt != RT_EIFMT_HVAL)
      return rt_record_error(r, "EIATTR_CBANK_PARAM_SIZE", "EIFMT_HVAL");
    out->param_bytes = r->value;
    return TILE_RT_SUCCESS;
  case RT_EIATTR_NUM_BARRIERS:
    if (r->fmt != RT_EIFMT_BVAL && r->fmt != RT_EIFMT_HVAL)
      return rt_record_error(r, "EIATTR_NUM_BARRIERS", "EIFMT_BVAL");
    out->barriers = r->fmt == RT_EIFMT_BVAL ? (r->value & 0xff) : r->value;
    return TILE_RT_SUCCESS;
  case RT_EIATTR_MAX_THREADS:
  case RT_EIATTR_REQNTID: {
    int req = r->attr == RT_EIATTR_REQNTID;
    if (r->fmt != RT_EIFMT_SVAL || r->payload_size != 12)
      return rt_record_error(r, req ? "EIATTR_REQNTID" : "EIATTR_MAX_THREADS",
                             "EIFMT_SVAL {u32 x, u32 y, u32 z}");
    if (req || !a->have_reqntid)
      for (int i = 0; i < 3; ++i)
        out->max_threads[i] = rt_u32(r->payload + 4 * i);
    a->have_reqntid |= req;
    return TILE_RT_SUCCESS;
  }
  default:
    return TILE_RT_SUCCESS; /* not a resource */
  }
}

/* Walks the records of an .nv.info section. */
static tile_rt_status rt_walk(rt_attrs *a, const rt_elf *elf,
                              const rt_section *s, const char *name) {
  const unsigned char *p;
  tile_rt_status st = rt_section_data(&p, elf, s, name);
  if (st != TILE_RT_SUCCESS)
    return st;
  size_t n = (size_t)s->size, at = 0;
  while (at < n) {
    rt_record r = {name, at, 0, 0, 0, NULL, 0};
    if (n - at < 4)
      return rt_error(TILE_RT_ERROR_PARSE,
                      "cubin: %s: truncated record at offset %zu (%zu bytes "
                      "left of the %zu-byte section, a record takes 4)",
                      name, at, n - at, n);
    r.fmt = p[at];
    r.attr = p[at + 1];
    r.value = rt_u16(p + at + 2);
    if (r.fmt < RT_EIFMT_NVAL || r.fmt > RT_EIFMT_SVAL)
      return rt_error(TILE_RT_ERROR_PARSE,
                      "cubin: %s: record at offset %zu has unknown format "
                      "0x%02x (attribute 0x%02x)",
                      name, at, r.fmt, r.attr);
    if (r.fmt == RT_EIFMT_SVAL) {
      r.payload_size = r.value;
      if (r.payload_size > n - at - 4)
        return rt_error(TILE_RT_ERROR_PARSE,
                        "cubin: %s: EIFMT_SVAL record (attribute 0x%02x) at "
                        "offset %zu has %zu payload bytes, past the end of "
                        "the %zu-byte section",
                        name, r.attr, at, r.payload_size, n);
      r.payload = p + at + 4;
    }
    if ((st = rt_apply(a, &r)) != TILE_RT_SUCCESS)
      return st;
    at += 4 + r.payload_size;
  }
  return TILE_RT_SUCCESS;
}

/*===--- The kernel's resources -------------------------------------------===*/

tile_rt_status tile_rt_cubin_kernel_resources(tile_rt_kernel_resources *out,
                                              const void *image, size_t size,
                                              const char *kernel) {
  if (!out)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_cubin_kernel_resources: NULL output");
  memset(out, 0, sizeof *out);
  if (!image || !kernel || !*kernel)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_cubin_kernel_resources: %s",
                    !image ? "NULL image" : "no kernel name");
  if (strlen(kernel) > TILE_RT_MAX_NAME)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_cubin_kernel_resources: kernel name longer than "
                    "%d bytes",
                    TILE_RT_MAX_NAME);
  rt_elf elf;
  tile_rt_status st = rt_elf_open(&elf, image, size);
  if (st != TILE_RT_SUCCESS)
    return st;
  rt_attrs a;
  memset(&a, 0, sizeof a);
  a.out = out;
  if ((st = rt_find_kernel(&a.symbol, &a.nsymbols, &elf, kernel)) !=
      TILE_RT_SUCCESS)
    return st;

  char name[TILE_RT_MAX_NAME + 32];
  rt_section s;
  int found;
  if ((st = rt_find_section(&s, &found, &elf, ".nv.info")) != TILE_RT_SUCCESS)
    return st;
  if (found && (st = rt_walk(&a, &elf, &s, ".nv.info")) != TILE_RT_SUCCESS)
    return st;
  snprintf(name, sizeof name, ".nv.info.%s", kernel);
  if ((st = rt_find_section(&s, &found, &elf, name)) != TILE_RT_SUCCESS)
    return st;
  if (!found)
    return rt_error(TILE_RT_ERROR_NOT_FOUND,
                    "cubin: '%s' is a function but not a kernel (no %s "
                    "section)",
                    kernel, name);
  if ((st = rt_walk(&a, &elf, &s, name)) != TILE_RT_SUCCESS)
    return st;
  if (!a.have_regcount)
    return rt_error(TILE_RT_ERROR_PARSE,
                    "cubin: no EIATTR_REGCOUNT record for kernel '%s' (symbol "
                    "%u) in .nv.info or %s",
                    kernel, a.symbol, name);

  uint32_t stack = out->frame_bytes;
  if (a.min_stack > stack)
    stack = a.min_stack;
  if (a.max_stack > stack)
    stack = a.max_stack;
  out->stack_bytes = stack;
  out->sm = elf.sm;

  snprintf(name, sizeof name, ".nv.shared.%s", kernel);
  if ((st = rt_find_section(&s, &found, &elf, name)) != TILE_RT_SUCCESS)
    return st;
  if (found) {
    if (s.size > UINT32_MAX)
      return rt_error(TILE_RT_ERROR_PARSE,
                      "cubin: %s claims %llu bytes of shared memory", name,
                      (unsigned long long)s.size);
    rt_section reserved;
    int has_reserved;
    if ((st = rt_find_section(&reserved, &has_reserved, &elf,
                              RT_RESERVED_SMEM_SECTION)) != TILE_RT_SUCCESS)
      return st;
    uint32_t total = (uint32_t)s.size;
    out->reserved_smem = !has_reserved              ? 0
                         : total < RT_RESERVED_SMEM ? total
                                                    : RT_RESERVED_SMEM;
    out->static_smem = total - out->reserved_smem;
  }
  return TILE_RT_SUCCESS;
}
