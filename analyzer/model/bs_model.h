/*
 * bs_model.h - the model: what one warp's shared-memory access costs.
 *
 * This is the contract of the bankscope library's core; bankscope.h
 * includes it with the other wings (inputs and datasets, SASS profiles,
 * the fix advisor, calibration).
 *
 * An access (bs_access) is one warp instruction: 32 lanes, each either
 * inactive or holding a byte address in shared memory, a width in bytes
 * and a kind.  A kind (bs_kind_info) is one row of the table of access
 * kinds: ld and st (LDS, STS), ldmatrix and stmatrix (LDSM, STSM), the
 * shared atomics (ATOMS) and cp.async (LDGSTS), each with its name as
 * written in pattern files and datasets, its SASS and PTX, the widths it
 * allows and which lanes supply addresses.
 *
 * An architecture (bs_arch) is data: a bank count and width,
 * and one rule (bs_rule) per (kind, width) it models, each saying how the
 * warp splits into phases, when requests pack into wider phases, whether
 * lanes that want one word share it, what counts as ideal, the latency
 * line and where the rule comes from (a measured dataset, or "assumed from
 * the documentation, not measured").  Architectures are text files
 * (docs/model.md, "Architecture files"); the built-in ones are compiled in from
 * the files in analyzer/archs/.
 *
 * bs_predict() turns an access into wavefronts, ideal wavefronts, bank
 * conflicts (wavefronts - ideal, the definition Nsight Compute's
 * l1tex__data_bank_conflicts_pipe_lsu_mem_shared counter follows), the
 * worst n-way degree and the latency the architecture models;
 * bs_predict_detail() adds the phases and, for every bank, the distinct
 * words it delivers and the lanes that want each of them.
 *
 * Errors: every function that can fail returns a negative value (or NULL)
 * and fills a bs_error with the source (file name or option), the line
 * and column (1-based, 0 when they do not apply) and one sentence.  The
 * library never prints and never exits.
 */
#ifndef BS_MODEL_H
#define BS_MODEL_H

#include "../base/bs_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BS_LANES 32
#define BS_NAME_MAX 64       /* bytes of an access name, NUL included */
#define BS_MAX_BANKS 64
#define BS_MAX_PHASES 32
/*
 * Distinct bank words one access can touch: 32 lanes x 16 bytes, in banks
 * of 1 byte (an arch file may declare bank_bytes 1).
 */
#define BS_MAX_CELLS (BS_LANES * 16)

/* ---- widths -------------------------------------------------------------
 * Bytes per lane address: 1, 2, 4, 8 or 16, indexed 0..4.
 */
#define BS_NWIDTHS 5
extern const unsigned bs_widths[BS_NWIDTHS];
int bs_width_index(unsigned width);   /* -1 when not a valid width */

/* ---- access kinds ---------------------------------------------------------
 * The table of kinds, in a fixed order: a kind's id is its row.  ld and
 * st are rows 0 and 1, so every file written before kinds existed reads
 * the same.  load and store are accepted as other names for them.
 */
typedef uint8_t bs_kind;
#define BS_KIND_LD ((bs_kind)0)
#define BS_KIND_ST ((bs_kind)1)
#define BS_KIND_NONE ((bs_kind)0xff)
#define BS_MAX_KINDS 32

/* What the access does to the shared words it addresses. */
typedef enum {
	BS_READS = 1,            /* ld, ldmatrix */
	BS_WRITES = 2,           /* st, stmatrix, cp.async (its destination) */
	BS_UPDATES = 3,          /* atomics: read, modify, write */
} bs_direction;

typedef struct {
	const char *name;        /* in pattern files and datasets: "ldsm.x4" */
	const char *alias;       /* another accepted name, or NULL */
	const char *sass;        /* SASS opcode and the modifiers that select
				    it: "LDS", "LDSM.16.M88.4", "ATOMS.ADD" */
	const char *ptx;         /* "ldmatrix.sync.aligned.m8n8.x4.shared.b16" */
	uint8_t widths;          /* bit i: bs_widths[i] is allowed */
	uint32_t addr_lanes;     /* lanes that supply an address */
	uint8_t direction;       /* bs_direction */
	uint8_t returns;         /* 1: a value comes back (a dependent chain
				    can time it) */
	uint8_t multicast;       /* 1: by its semantics, lanes that want one
				    word may be served together (not so for an
				    atomic, whose every update must apply) */
	uint8_t min_sm;          /* first compute capability x 10 with it */
	const char *what;        /* one line for listings */
	/*
	 * 1: distributed shared memory, another CTA's shared memory through
	 * a cluster address (sm_90 clusters).  Its cost follows the 32-byte
	 * sectors it moves, not banks (a rule with remote=, bs_remote_
	 * geometry); its SASS is a generic LD.E / ST.E / ATOM.E, which the
	 * opcode alone cannot tell from a global access, so bs_sass_kind
	 * never answers with it.
	 */
	uint8_t remote;
} bs_kind_info;

unsigned bs_kind_count(void);
/* The row of kind k, or NULL past the table. */
const bs_kind_info *bs_kind_get(bs_kind k);
/* "ld" for BS_KIND_LD; "?" for an unknown id. */
const char *bs_kind_name(bs_kind k);
/* By name or alias: 0 and *out, or -1. */
int bs_kind_find(const char *name, bs_kind *out);
int bs_kind_allows_width(bs_kind k, unsigned width);
/* "1, 2, 4, 8 or 16" / "16": the widths kind k allows, for messages. */
void bs_kind_widths_text(bs_kind k, char *buf, size_t size);
/*
 * 0 when kind k is known and allows width; else -1 with err naming
 * source: "width 3 is not 1, 2, 4, 8 or 16 bytes", "ldsm.x4 takes a width
 * of 16 bytes, not 4".
 */
int bs_kind_check_width(bs_kind k, unsigned width, const char *source,
			bs_error *err);

/*
 * A SASS instruction's kind and width, from its text ("@!P0 LDS.U16 R3,
 * [R2+0x10]"; an opcode alone is fine): 1 when its opcode belongs to a
 * shared-memory family of the table (LDS, STS, LDSM, STSM, ATOMS,
 * LDGSTS), with *kind the most specific row whose modifiers it carries
 * (BS_KIND_NONE when none does, as for ATOMS.POPC.INC) and *width from
 * its modifiers; 0 when it is not a shared-memory instruction.  kind and
 * width may be NULL.
 */
int bs_sass_kind(const char *sass, bs_kind *kind, unsigned *width);
/*
 * The remote kind a generic instruction would be when its lanes address
 * another CTA's shared memory (profile records tell when: dshared): 1 for
 * LD.E (dsmem.ld) and ST.E (dsmem.st), width from the modifiers (U8 S8:
 * 1, U16 S16: 2, 64: 8, 128: 16, else 4), ATOM.E.ADD (dsmem.atom.add.u32)
 * and RED.E.ADD (dsmem.red.add.u32) on a 32-bit integer (no 64, F32,
 * F16x2, ...); ordering modifiers (.STRONG.GPU) and a predicate are
 * fine.  0 for anything else.  kind and width may be NULL.
 */
int bs_sass_remote_kind(const char *sass, bs_kind *kind, unsigned *width);

/* ---- the access ------------------------------------------------------------ */

typedef struct {
	char name[BS_NAME_MAX];
	unsigned width;          /* bytes per lane: 1, 2, 4, 8 or 16 */
	bs_kind kind;
	uint32_t active;         /* bit l set: lane l takes part */
	uint32_t addr[BS_LANES]; /* byte address of each active lane */
	/*
	 * A copy from global memory (copy=lines): each lane's global
	 * source address, its low 32 bits, where known (profile --explain
	 * records them; the array is the caller's and must outlive the
	 * prediction); NULL: the source is taken to be base + 16 lane,
	 * 128-byte aligned.
	 */
	const uint32_t *src;
} bs_access;

/*
 * Validate an access: kind known, width allowed for it, active lanes
 * among the kind's address lanes, addresses aligned to the width and
 * within 32 bits.  0 or -1 with err.
 */
int bs_access_check(const bs_access *a, bs_error *err);

/* ---- architectures ------------------------------------------------------ */

typedef enum {
	BS_SAME_WORD_SHARE = 0,  /* lanes that want one word cost one (multicast) */
	BS_SAME_WORD_SERIAL = 1, /* every lane's word is served on its own */
} bs_same_word;

/*
 * How the source operation reaches the banks.  BS_LOOP_CAS: not one
 * instruction but the retry loop ptxas makes of an atomic the hardware
 * lacks (atomicAdd on float or on 64-bit integers in shared memory on
 * sm_90): every pass, the pending lanes load their words (LDS, under the
 * architecture's ld rule of the same width), then in each phase the lowest
 * pending lane of every bank group tries a compare-and-store
 * (ATOMS.CAST.SPIN), which costs slot_waves wavefronts for the phase; a
 * lane fails when a lane of a lower phase stored to its word in the same
 * pass, and the lanes that succeed leave the loop.
 */
typedef enum {
	BS_LOOP_NONE = 0,
	BS_LOOP_CAS = 1,
} bs_loop;

/*
 * How a copy from global memory lands in the banks.  BS_COPY_LINES
 * (cp.async.cg, 16 bytes, on sm_90): not by bank slots but by lines.  A
 * lane whose destination an earlier lane already has is dropped; each
 * other lane copies the 16-byte chunk cs of source line G to chunk cd of
 * shared line L, where lane l's source is taken to be base + 16 l with
 * base 128-byte aligned (G = l / 8, cs = l % 8: a coalesced copy, the
 * only kind measured).  One wavefront copies one source line into one
 * shared line under one XOR of chunk bits 0-1 (k = (cs ^ cd) & 3),
 * choosing for each 32-byte destination sector which source sector it
 * takes and writing one 16-byte half mask: the wavefronts are the
 * distinct (G, L, k, mask), mask being the halves of a (destination
 * sector, source sector) pair the lanes of (G, L, k) write.  Phases are
 * the source lines (8 lanes each); the ideal is one wavefront for each
 * with a lane.  Needs 16-byte accesses and 128-byte lines.
 */
/*
 * BS_COPY_WORDS (cp.async.ca, 4 to 16 bytes, on sm_90): the bank-slot
 * rule of the store, plus the source: lanes whose sources share a 4-byte
 * word of their 128-byte window (the source address modulo 128) wait for
 * one another, and a phase costs its bank wavefronts plus its most lanes
 * on one such source word, less one.  Without recorded sources (src
 * NULL: base + width * lane, a coalesced copy) no two lanes of a phase
 * share a source word and the rule is the store's.
 * (research/cpasync: 733 of 780 systematic accesses, 99 of 110 held-out.)
 */
typedef enum {
	BS_COPY_NONE = 0,
	BS_COPY_LINES = 1,
	BS_COPY_WORDS = 2,
} bs_copy;

/*
 * A remote kind's cost (distributed shared memory, bs_kind_info.remote):
 * not bank slots but the 32-byte sectors the SM-to-SM network moves
 * (bs_remote_geometry).  BS_REMOTE_SECTORS: its distinct sectors (loads);
 * BS_REMOTE_RMW: a read and a write of each sector per pass, 2 x passes
 * (atomics: the lanes on one word go one after another);
 * BS_REMOTE_WRITES: the distinct sectors of each 128-byte line, but 2 for
 * a line whose one sector is written in both of its 16-byte halves
 * (stores: 86 of 86 systematic and 80 of 80 held-out rows on the H200 and
 * the H100, where distinct sectors gave 75 and 72).  The
 * wavefronts are the target's dshared wavefronts, ceil(distinct 128-byte
 * lines / 4), the ideal the same (no bank is paid for); the latency is
 * lat_base + lat_slope x the sectors moved.  Measured on the H200:
 * docs/model.md, "Distributed shared memory".
 */
typedef enum {
	BS_REMOTE_NONE = 0,
	BS_REMOTE_SECTORS = 1,
	BS_REMOTE_RMW = 2,
	BS_REMOTE_WRITES = 3,
} bs_remote_cost;

typedef enum {
	/* per phase: ceil(distinct words / banks) */
	BS_IDEAL_WORDS = 0,
	/* per phase: ceil(active lanes x words per lane / banks), as if
	   no two lanes shared a word */
	BS_IDEAL_LANES = 1,
} bs_ideal;

/*
 * One rule of an architecture's 'gmma' lines: how the operand reads of
 * one family with A in shared memory (ss) or registers (rs) become
 * wavefronts: a_copies x ceil(A bytes / wave_bytes) + b_copies x
 * ceil(B bytes / wave_bytes) per warpgroup instruction.  measured 0: not
 * yet measured by bankscope-gmma (the CLI says so beside every figure).
 */
#define BS_MAX_GMMA_RULES 8
typedef struct {
	uint8_t op;              /* BS_GMMA_OP_* (below, "wgmma") */
	uint8_t a_regs;          /* 0: ss, 1: rs */
	uint8_t a_copies, b_copies;
	uint8_t measured;
	uint8_t source;          /* index into bs_arch.source */
	uint16_t wave_bytes;
} bs_gmma_rule;

#define BS_MAX_RULES 128
#define BS_MAX_SOURCES 8
#define BS_ARCH_NAME_MAX 32

typedef struct {
	char tag[16];            /* what rules name it by: "h100" */
	char text[240];          /* "measured on ...: data/h100-sxm/all-....csv" */
} bs_source;

typedef struct {
	bs_kind kind;
	uint8_t width;           /* bytes */
	uint8_t phase_lanes;     /* lanes served together: 1, 2, 4, 8, 16, 32 */
	/*
	 * A request that is pairwise uniform under one of the partners
	 * (every active lane l has the address of lane l ^ m, where that lane
	 * is active, for an m whose bit is set in pack_partners) is served in
	 * phases of packed_lanes lanes; 0: this rule never packs.
	 */
	uint8_t packed_lanes;
	uint32_t pack_partners;  /* bit m: partner l ^ m (m = 1..31) */
	uint8_t same_word;       /* bs_same_word */
	uint8_t ideal;           /* bs_ideal */
	/*
	 * Wavefronts one bank slot costs (0 or 1: one; ATOMS.CAS: 2, a
	 * read and a write): wavefronts and the ideal are slots times this,
	 * and bank conflicts count the slots beyond the ideal, as the
	 * hardware's conflict counter does.
	 */
	uint8_t slot_waves;
	uint8_t loop;            /* bs_loop */
	uint8_t copy;            /* bs_copy */
	uint8_t remote;          /* bs_remote_cost: a remote kind's rule */
	/*
	 * Latency in cycles, base + slope * wavefronts (lat_packed instead
	 * of lat_base when the request packed; a remote rule: base + slope *
	 * sectors moved); NaN: not modeled.
	 */
	double lat_base, lat_packed, lat_slope;
	/* Conflict-free throughput, bytes per clock per SM; NaN: not measured. */
	double tp_bytes_per_clk;
	uint8_t source;          /* index into bs_arch.source */
} bs_rule;

typedef struct {
	char name[BS_ARCH_NAME_MAX];   /* "sm_90" */
	char description[240];
	/* The compute capabilities it is for, space-separated: "9.0". */
	char compute_capability[64];
	unsigned banks;          /* number of banks (power of two, <= 64) */
	unsigned bank_bytes;     /* bytes a bank delivers per wavefront */
	unsigned nsources;
	bs_source source[BS_MAX_SOURCES];
	unsigned nrules;
	bs_rule rule[BS_MAX_RULES];
	/* rule_of[kind][width index]: index into rule, -1 when not modeled */
	int16_t rule_of[BS_MAX_KINDS][BS_NWIDTHS];
	/* the 'gmma' lines: wgmma operand reads (bs_gmma_rule) */
	unsigned ngmma;
	bs_gmma_rule gmma[BS_MAX_GMMA_RULES];
} bs_arch;

/* The built-in architectures: NULL-terminated list, lookup by name. */
const bs_arch *const *bs_archs(void);
const bs_arch *bs_arch_find(const char *name);
const bs_arch *bs_arch_default(void);   /* sm_90 */
/* The built-in architecture for a compute capability ("9.0"), or NULL. */
const bs_arch *bs_arch_for_cc(const char *cc);

/* The rule for (kind, width), or NULL when the arch does not model it. */
const bs_rule *bs_arch_rule(const bs_arch *p, bs_kind kind,
			       unsigned width);

/* An empty architecture: no sources, no rules. */
void bs_arch_init(bs_arch *p);
/* Add a rule (replacing one for the same kind and width); 0 or -1. */
int bs_arch_set_rule(bs_arch *p, const bs_rule *r, bs_error *err);

/*
 * Architecture files.  bs_arch_read() parses one (f is not closed; name is
 * used in errors, which give file:line:column) and checks it whole.
 * bs_arch_write() writes the text form bs_arch_read() takes back:
 * 0, or -1 on a write error (errno set).
 */
int bs_arch_read(FILE *f, const char *name, bs_arch *out,
		    bs_error *err);
int bs_arch_parse(const char *text, const char *name, bs_arch *out,
		     bs_error *err);
int bs_arch_write(FILE *f, const bs_arch *p);
/* "share" / "serial", "words" / "lanes", "none" / "cas". */
const char *bs_same_word_name(unsigned v);
const char *bs_ideal_name(unsigned v);
const char *bs_loop_name(unsigned v);
/* "none" / "lines". */
const char *bs_copy_name(unsigned v);
/* "sectors", "rmw"; "none" for BS_REMOTE_NONE. */
const char *bs_remote_name(unsigned v);
/*
 * A rule's lane partners (bit m: partner m, 1..31) as arch files write
 * them, "1,2,16"; "-" when there is none.  BS_PARTNERS_TEXT_MAX holds all
 * 31: nine of one digit, 22 of two, 30 commas and the NUL.  Returns buf.
 */
#define BS_PARTNERS_TEXT_MAX 84
const char *bs_partners_text(uint32_t partners,
			     char buf[BS_PARTNERS_TEXT_MAX]);

/* ---- prediction ------------------------------------------------------ */

typedef struct {
	unsigned active_lanes;
	unsigned wavefronts;
	unsigned ideal_wavefronts;  /* by the rule's ideal */
	unsigned bank_conflicts;    /* wavefronts - ideal_wavefronts (over
				       slot_waves), or 0 when the ideal is
				       the larger */
	unsigned max_way;           /* largest distinct-word count of any bank in any phase */
	unsigned phases;            /* phases with at least one active lane */
	int packed;                 /* 1 when the request's phases were packed
				       (a loop: its first load) */
	/*
	 * A loop rule (BS_LOOP_CAS): the passes, and the wavefronts of the
	 * loads and of the compare-and-stores, which add up to wavefronts;
	 * the ideal is one pass without a conflict (the load's ideal and
	 * slot_waves for each phase with an active lane), max_way the
	 * largest of any pass's load.  0 for every other rule.
	 */
	unsigned passes;
	unsigned load_wavefronts, cas_wavefronts;
	/*
	 * A remote rule: the sectors it moves and the distinct 128-byte
	 * lines (passes: an rmw rule's); 0 for every other rule.
	 */
	unsigned sectors, lines;
	double latency_cycles;      /* NaN when the arch does not model it */
} bs_summary;

/* One distinct word a bank delivers in one phase. */
typedef struct {
	uint8_t phase;      /* index into bs_detail.phase */
	uint8_t bank;
	uint8_t wave;       /* wavefront of its phase that serves it, 0-based */
	uint32_t word;      /* address / bank_bytes */
	uint32_t lanes;     /* lanes that want it (one lane when serial) */
} bs_cell;

typedef struct {
	uint32_t lanes;         /* lanes of the phase (active or not) */
	uint32_t active;        /* its active lanes */
	unsigned slots;         /* = max_way of the phase: the rows of its map */
	unsigned wavefronts;    /* (slots + waits) x the rule's slot_waves */
	unsigned waits;         /* copy=words: the phase's most lanes on one
				   source word, less one */
	unsigned words;         /* distinct words */
	unsigned first_cell;    /* its cells: cell[first_cell .. first_cell+ncells) */
	unsigned ncells;
} bs_phase;

/* One pass of a loop rule. */
typedef struct {
	uint32_t pending;       /* the lanes that load and try in this pass */
	uint32_t done;          /* those whose compare-and-store succeeded */
	unsigned load_wavefronts;
	unsigned cas_phases;    /* phases where a lane tried */
	unsigned cas_wavefronts;
} bs_pass;

typedef struct {
	bs_summary sum;
	/* A loop rule: its passes; phase and cell hold the first pass's load. */
	unsigned npasses;
	bs_pass pass[BS_LANES];
	int copy;               /* a copy=lines rule: each phase is a source
				   line, each wave one of its wavefronts */
	int serial;             /* the rule serves every lane's word on its own:
				   a phase's words count lanes, not distinct
				   words */
	unsigned nphases;       /* all phases of the access, active or not */
	bs_phase phase[BS_MAX_PHASES];
	unsigned ncells;
	bs_cell cell[BS_MAX_CELLS];  /* sorted by phase, wave, bank */
} bs_detail;

/*
 * The fast path: counts only.  0, or -1 with err for an invalid access or
 * a (kind, width) the architecture does not model.
 */
int bs_predict(const bs_arch *p, const bs_access *a, bs_summary *out,
	       bs_error *err);
/* Everything the text and JSON formats show. */
int bs_predict_detail(const bs_arch *p, const bs_access *a, bs_detail *out,
		      bs_error *err);

/*
 * Which measured counters disagree with a prediction, as check, report
 * and calibrate all judge them: BS_DIFFER_WAVEFRONTS when the wavefronts
 * differ by more than BS_COUNT_TOL, BS_DIFFER_CONFLICTS when the bank
 * conflicts do (NaN conflicts, not measured, never differ); 0 when they
 * agree.
 */
#define BS_COUNT_TOL 1e-6
#define BS_DIFFER_WAVEFRONTS 1u
#define BS_DIFFER_CONFLICTS 2u
unsigned bs_counters_differ(double wavefronts, double conflicts,
			    const bs_summary *s);
/*
 * A remote kind's (bs_kind_info.remote) measured sectors against its
 * prediction: BS_DIFFER_SECTORS when they differ by more than
 * BS_COUNT_TOL; 0 when they agree or were not measured (NaN).  Only
 * remote rules predict sectors: a bank rule's summary has 0.
 */
#define BS_DIFFER_SECTORS 4u
unsigned bs_sectors_differ(double sectors, const bs_summary *s);

/*
 * Distributed shared memory: what an access to another CTA's shared
 * memory touches (analyzer/model/remote.c).  sectors and lines: the
 * distinct 32-byte sectors and 128-byte lines of the active lanes' bytes
 * (each sector listed, with its lanes, for the sector maps);
 * passes: the sum, over those sectors, of the most lanes whose bytes fall
 * in one 4-byte word of the sector (an atomic's read-modify-writes of one
 * word go one after another); most_on_word: the most lanes on any one
 * word; written: the sectors BS_REMOTE_WRITES counts (a line's distinct
 * sectors, 2 for a line with one sector whose two 16-byte halves both
 * hold a byte).  0, or -1 for a width past 16 or an access
 * that runs past 4 GiB.
 */
#define BS_REMOTE_MAX_SECTORS (2 * BS_LANES)   /* a lane may cross one */
typedef struct {
	unsigned sectors, lines, passes, most_on_word, written;
	/* the sectors, ascending, and the lanes whose bytes fall in each */
	uint32_t sector[BS_REMOTE_MAX_SECTORS];
	uint32_t sector_lanes[BS_REMOTE_MAX_SECTORS];
} bs_remote;
int bs_remote_geometry(const bs_access *a, bs_remote *out);
/*
 * The summary of a remote rule's access (bs_remote_cost): sectors moved,
 * lines, passes (rmw), dshared wavefronts, latency.  0, or -1 as
 * bs_remote_geometry.  bs_predict calls it for remote rules.
 */
int bs_remote_predict(const bs_rule *r, const bs_access *a, bs_summary *s);

/* Is the request pairwise uniform under lane partner l^m? */
int bs_pairwise_uniform(const bs_access *a, unsigned m);

/* ---- wgmma: the warpgroup MMA's operands in shared memory (sm_90a) -----
 * wgmma.mma_async (SASS HGMMA, IGMMA, QGMMA) reads B, and A unless A is
 * in registers (RS; SS: both from shared memory), through a 64-bit
 * matrix descriptor each (gmma.c; the PTX ISA's "Matrix Descriptor
 * Format", CUTLASS's cute::GmmaDescriptor):
 *
 *   bits  0-13  start address >> 4       bits 32-45  stride byte offset >> 4
 *   bits 16-29  leading byte offset >> 4  bits 49-51  base offset
 *   bits 62-63  layout type: 0 interleave (no swizzle), 1 128B, 2 64B,
 *               3 32B swizzle (the reverse of CUtensorMapSwizzle's order)
 *
 * No lane gives an address: the descriptor places the operand's 8 x 16-byte
 * core matrices.  One instruction is m64nNk(32 bytes): A is 64 rows of 32
 * bytes (2 KB), B N rows of 32 bytes, whatever the element type.  What it
 * costs in wavefronts is a rule of the architecture (a 'gmma' line, bs_
 * gmma_rule), which may say it is not yet measured.
 */
#define BS_GMMA_INTERLEAVE 0u
#define BS_GMMA_B128 1u
#define BS_GMMA_B64 2u
#define BS_GMMA_B32 3u

typedef struct {
	uint64_t raw;
	uint32_t start;          /* byte address (the field << 4) */
	uint32_t lbo;            /* leading byte offset, bytes */
	uint32_t sbo;            /* stride byte offset, bytes */
	unsigned base_offset;    /* bits 49-51 */
	unsigned layout;         /* BS_GMMA_* (bits 62-63) */
	uint64_t stray;          /* the bits set outside every field */
} bs_gmma_desc;

void bs_gmma_decode(uint64_t raw, bs_gmma_desc *out);
/*
 * The descriptor of these fields: start, lbo and sbo multiples of 16
 * below 256 KiB, base_offset below 8, layout below 4.  0 and *raw, or -1
 * with err naming source and the field.
 */
int bs_gmma_encode(uint32_t start, uint32_t lbo, uint32_t sbo,
		   unsigned base_offset, unsigned layout, uint64_t *raw,
		   const char *source, bs_error *err);
/* "interleave", "128B", "64B", "32B"; "?" past 3. */
const char *bs_gmma_layout_name(unsigned layout);
/* The swizzle span in bytes of a layout type: 0 (interleave), 128, 64,
 * 32; and the layout type of a span (0, 32, 64, 128), or -1. */
unsigned bs_gmma_swizzle_bytes(unsigned layout);
int bs_gmma_layout_of_swizzle(unsigned bytes);

/* The instruction families, by element type: K is 32 bytes of elements. */
#define BS_GMMA_OP_H16 0u     /* HGMMA, f16 or bf16, k16 (transposable) */
#define BS_GMMA_OP_TF32 1u    /* HGMMA, tf32, k8 */
#define BS_GMMA_OP_I8 2u      /* IGMMA, s8/u8, k32 */
#define BS_GMMA_OP_F8 3u      /* QGMMA, e4m3/e5m2, k32 */
#define BS_GMMA_NOPS 4u
/* "hgmma", "hgmma.tf32", "igmma", "qgmma"; NULL past the table. */
const char *bs_gmma_op_name(unsigned op);
int bs_gmma_op_find(const char *name, unsigned *op);
unsigned bs_gmma_op_elem_bytes(unsigned op);    /* 2, 4, 1, 1 */

/*
 * CUTLASS's canonical tile for one k-block of an operand (make_gmma_desc
 * on a tile_to_shape of GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom,
 * the atoms along M or N first): rows (M or N: a multiple of 8) by 32
 * bytes of K at byte address start, under layout, K-major or MN-major.
 *   K-major: interleave SBO 128, LBO rows x 16; swizzled SBO 8 x the
 *     swizzle span, LBO 16 (unused, "assumed 1").
 *   MN-major (16-bit elements): interleave SBO 128, LBO rows x 16 (the
 *     second 8 k); swizzled LBO = the atom (8 x the span) and SBO = the
 *     atoms across the rows (at least one) x the atom.
 * 0, or -1 with err (rows not a multiple of 8 from 8 to 256, MN-major
 * of an element that is not 2 bytes, start not a multiple of 16).
 */
int bs_gmma_canonical(unsigned layout, int mn_major, unsigned rows,
		      unsigned elem_bytes, uint32_t start, bs_gmma_desc *out,
		      bs_error *err);
/* Bytes a canonical tile spans from start (what a probe allocates). */
uint32_t bs_gmma_canonical_span(unsigned layout, int mn_major,
				unsigned rows);

/*
 * The shared-memory byte address of element (row, k) (row: M for A, N for
 * B; k in elements, k x elem_bytes < 32) as the descriptor places it:
 * the core-matrix offset from start, then the layout's XOR of address
 * bits [4, 4+b) with bits [7, 7+b) (b = 1, 2, 3 for 32B, 64B, 128B) on
 * the whole address.  The base offset is not applied (bs_gmma_predict
 * warns when it is not 0).
 */
uint32_t bs_gmma_addr(const bs_gmma_desc *d, int mn_major,
		      unsigned elem_bytes, unsigned row, unsigned k);

typedef struct {
	unsigned op;             /* BS_GMMA_OP_* */
	unsigned n;              /* 8 to 256, a multiple of 8 */
	int a_regs;              /* 1: A from registers (RS) */
	int a_mn, b_mn;          /* 1: MN-major (transposed), 16-bit only */
	int have_a, have_b;      /* a descriptor given for A, for B */
	bs_gmma_desc a, b;
} bs_gmma_instr;


typedef struct {
	unsigned a_bytes, b_bytes, bytes;   /* read from shared memory */
	unsigned wavefronts;                /* by the rule */
	unsigned ideal_wavefronts;          /* bytes / 128, rounded up */
	int measured;                       /* the rule's measured flag */
	/*
	 * From the descriptors, where given: the operand's elements that
	 * share an address with another (offsets that make core matrices
	 * overlap), and the bytes it reads, [lo, hi).  (Every descriptor
	 * puts a core matrix's 8 rows of 16 bytes in 8 different groups of
	 * 4 banks, contiguous or XOR-swizzled, so there is no address
	 * conflict to find within one.)
	 */
	unsigned a_overlap, b_overlap;
	uint32_t a_lo, a_hi, b_lo, b_hi;    /* the bytes read, [lo, hi) */
} bs_gmma_summary;

/*
 * The operand bytes (exact: the shape's) and the rule's wavefronts of g
 * under p, with the descriptors' overlaps and extents.  0, or -1 with err (an
 * invalid shape, MN-major of a type that cannot transpose, no gmma rule
 * for the family in p).
 */
int bs_gmma_predict(const bs_arch *p, const bs_gmma_instr *g,
		    bs_gmma_summary *out, bs_error *err);
/* p's gmma rule for family op with A in registers (a_regs 1) or not;
 * NULL when it has none. */
const bs_gmma_rule *bs_arch_gmma_rule(const bs_arch *p, unsigned op,
				      int a_regs);

/*
 * A SASS warpgroup MMA ("HGMMA.64x128x16.F32 R24, gdesc[UR4], R24",
 * "HGMMA.64x64x16.F32 R24, R152, gdesc[UR8], R24, gsb0",
 * "HGMMA.64x128x16.F32 R88, gdesc[UR8].tnspB, R88"): 1 with the family,
 * N, SS/RS and the transposes (.tnspA, .tnspB: MN-major) in *out (no
 * descriptors) and, in *ur, the uniform register of the gdesc operand:
 * A's descriptor in UR, UR+1 and B's in UR+2, UR+3, in both forms (RS
 * leaves UR, UR+1 unused: bankscope-gmma's RS kernels write UR+2 and
 * UR+3 before every one, data/h200/gmma-20261202/gmma-sass.txt.gz,
 * research/gmma/sass_forms.py); 0 when it is no dense m64 warpgroup MMA
 * (.SP sparse ones included).  out and ur may be NULL.
 */
int bs_sass_gmma(const char *sass, bs_gmma_instr *out, unsigned *ur);

/*
 * The descriptor in uniform registers ur (low word: start address and
 * leading byte offset) and ur+1 (high word: stride byte offset, base
 * offset, layout) before instruction at of a function's SASS (insn[0..
 * at), one instruction's text each, in program order).  Each word is
 * known when its last write is a UMOV of an immediate, of URZ or of a
 * uniform register that is one, with no branch, label or call in
 * between: compilers build the high word from constants and the low one
 * from the shared address (Triton's mm: UMOV UR9, 0x80000020).  Returns
 * the words known (bit 0 low, bit 1 high), *raw holding them (0 for the
 * others), and in why (when not NULL) a sentence on the first that is
 * not: which instruction writes it.
 */
unsigned bs_gmma_sass_desc(const char *const *insn, size_t at, unsigned ur,
			   uint64_t *raw, char *why, size_t whylen);


#ifdef __cplusplus
}
#endif

#endif
