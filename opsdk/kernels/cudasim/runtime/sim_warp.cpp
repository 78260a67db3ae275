// Warp collectives: shuffles (PTX shfl.sync's source lanes), votes, matches, reductions,
// __syncwarp and __activemask; a collective completes when every non-exited lane of its mask
// has arrived.
#include "sim_internal.h"

#include <stdio.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
const char *const kWarpNames[WARP_KINDS] = {
    "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__all_sync",
    "__any_sync", "__uni_sync", "__ballot_sync", "__syncwarp", "__match_any_sync",
    "__match_all_sync", "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
    "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync",
    "__reduce_xor_sync", "__activemask"};


static uint64_t poison_bits(int size) {
    switch (size) {
    case 1: return 0xF1;
    case 2: return 0x7FF1;
    case 4: return 0x7FF17FF1u;
    default: return 0x7FF17FF17FF17FF1ull;
    }
}

static uint64_t sized(uint64_t v, int size) {
    return size >= 8 ? v : (v & ((1ull << (8 * size)) - 1));
}

// the source lane of a shuffle, as PTX shfl.sync computes it (only b[4:0] is used; width is
// encoded as c = ((32 - width) << 8) | (mode == up ? 0 : 31))
static int shuffle_source(int kind, int lane, int b, int width) {
    int bval = b & 31;
    int segmask = (32 - width) & 31;
    int cval = kind == SHFL_UP ? 0 : 31;
    int max_lane = (lane & segmask) | (cval & ~segmask);
    int min_lane = lane & segmask;
    int j;
    bool ok;
    switch (kind) {
    case SHFL_UP: j = lane - bval; ok = j >= max_lane; break;
    case SHFL_DOWN: j = lane + bval; ok = j <= max_lane; break;
    case SHFL_XOR: j = lane ^ bval; ok = j <= max_lane; break;
    default: j = min_lane | (bval & ~segmask); ok = j <= max_lane; break;
    }
    return ok ? j : lane;
}

static void undefined_read(const Group &g, const Warp &warp, int w, int i, int j, unsigned arrived) {
    if (g_result->undefined_reads++) return;
    char mtext[160];
    lanes_text(mtext, sizeof mtext, arrived);
    snprintf(g_result->note, sizeof g_result->note,
             "%s at %s:%d: lane %d of warp %d in block (%u,%u,%u) read lane %d, which is %s (lanes taking "
             "part: %s); a GPU returns an undefined value there",
             kWarpNames[g.kind], g.file, g.line, i, w, blockIdx.x, blockIdx.y, blockIdx.z, j,
             (g.mask >> j & 1) ? ((warp.exist >> j & 1) ? "in the mask but has exited" : "outside the block")
                               : "not in the mask",
             mtext);
}

// a full warp's shuffle (a butterfly or shift-down reduction, a broadcast): every source lane
// has arrived, and at width 32 the source is the lane the offset names, or the lane itself where
// that falls outside the warp
template <int KIND> static void full_shuffle(Lane *lanes) {
    for (int i = 0; i < OPSDK_SIM_WARP; i++) {
        Lane &l = lanes[i];
        int b = l.arg & 31, j;
        if (__builtin_expect(l.width != 32, 0)) j = shuffle_source(KIND, i, l.arg, l.width);
        else if (KIND == SHFL_XOR) j = i ^ b;
        else if (KIND == SHFL_DOWN) j = i + b <= 31 ? i + b : i;
        else if (KIND == SHFL_UP) j = i - b >= 0 ? i - b : i;
        else j = b;
        l.result = sized(lanes[j].value, l.size);
    }
}

static const unsigned kStreak = 64;

// every lane of the group has arrived: each gets its result, and all but `current` are ready
void resolve(int w, int gi, int current) {
    Warp &warp = g_warps[w];
    Group &g = warp.groups[gi];
    Lane *lanes = &g_lanes[w * OPSDK_SIM_WARP];
    unsigned arrived = g.arrived;
    if (g.kind <= SHFL_XOR && arrived == 0xFFFFFFFFu) {
        switch (g.kind) {  // one loop per kind: the kind's test stays out of the lanes' loop
        case SHFL_IDX: full_shuffle<SHFL_IDX>(lanes); break;
        case SHFL_UP: full_shuffle<SHFL_UP>(lanes); break;
        case SHFL_DOWN: full_shuffle<SHFL_DOWN>(lanes); break;
        default: full_shuffle<SHFL_XOR>(lanes); break;
        }
    } else if (g.kind <= SHFL_XOR) {
        for (unsigned m = arrived; m; m &= m - 1) {
            int i = __builtin_ctz(m);
            Lane &l = lanes[i];
            int j = shuffle_source(g.kind, i, l.arg, l.width);
            if (arrived >> j & 1) {
                l.result = sized(lanes[j].value, l.size);
            } else {
                l.result = poison_bits(l.size);
                undefined_read(g, warp, w, i, j, arrived);
            }
        }
    } else {
        uint64_t ballot = 0, first = 0;
        bool all = true, any = false, same = true, have_first = false;
        uint32_t red = 0;
        for (unsigned m = arrived; m; m &= m - 1) {
            int i = __builtin_ctz(m);
            const Lane &l = lanes[i];
            uint64_t v = sized(l.value, l.size);
            if (l.value) ballot |= 1ull << i;
            all = all && l.value;
            any = any || l.value;
            if (!have_first) {
                first = v, have_first = true;
                red = (uint32_t)v;
                continue;
            }
            same = same && v == first;
            uint32_t x = (uint32_t)v;
            switch (g.kind) {
            case RED_ADD: red += x; break;
            case RED_MIN_U: red = x < red ? x : red; break;
            case RED_MAX_U: red = x > red ? x : red; break;
            case RED_MIN_S: red = (int32_t)x < (int32_t)red ? x : red; break;
            case RED_MAX_S: red = (int32_t)x > (int32_t)red ? x : red; break;
            case RED_AND: red &= x; break;
            case RED_OR: red |= x; break;
            case RED_XOR: red ^= x; break;
            }
        }
        for (unsigned m = arrived; m; m &= m - 1) {
            int i = __builtin_ctz(m);
            Lane &l = lanes[i];
            switch (g.kind) {
            case VOTE_ALL: l.result = all; break;
            case VOTE_ANY: l.result = any; break;
            case VOTE_UNI: l.result = all || !any; break;
            case VOTE_BALLOT: l.result = ballot; break;
            case MATCH_ANY: {
                uint64_t mm = 0, mine = sized(l.value, l.size);
                for (unsigned k = arrived; k; k &= k - 1)
                    if (sized(lanes[__builtin_ctz(k)].value, l.size) == mine) mm |= 1ull << __builtin_ctz(k);
                l.result = mm;
                break;
            }
            case MATCH_ALL: l.result = same ? arrived : 0; l.result_pred = same; break;
            case ACTIVEMASK: l.result = arrived; break;
            case SYNCWARP: l.result = 0; break;
            default: l.result = red; break;
            }
        }
    }
    // the lanes run next, in lane order (the one resolving it first): a warp's lanes then go from
    // one collective to the next together while their stacks are in the cache, instead of after
    // every other thread of the block. Every kStreak-th collective of a warp in a row they queue
    // behind the others, so a warp that spins (waiting for another warp's flag) lets them run
    int base = w * OPSDK_SIM_WARP;
    if (current >= 0) g_lanes[current].state = READY;
    unsigned others = current >= 0 ? arrived & ~(1u << (current - base)) : arrived;
    if (++warp.streak < kStreak) {
        int head = g_qhead;
        for (int i = OPSDK_SIM_WARP - 1; i >= 0; i--)
            if ((others >> i) & 1) head = (head - 1) & (kQueue - 1), g_queue[head] = base + i;
        g_qhead = head;
    } else {
        warp.streak = 0;
        for (unsigned m = others; m; m &= m - 1) make_ready(base + __builtin_ctz(m));
    }
    warp.active &= ~(1u << gi);
    // only __syncwarp orders memory among a warp's lanes (PTX bar.warp.sync); shuffles and votes
    // exchange registers and order nothing
    if (g.kind == SYNCWARP) warp.sync_gen++, warp.sync_mask = arrived;
}

bool complete(int w, int gi) {
    Warp &warp = g_warps[w];
    Group &g = warp.groups[gi];
    if (g.kind == ACTIVEMASK) return false;  // resolved when the whole block is waiting
    unsigned needed = g.mask & warp.exist & ~warp.done;
    return (g.arrived & needed) == needed;
}

// what is unusual about a collective's call (out of the common path): a caller outside its mask
// or a bad width (the launch stops), lanes of the mask that have exited (strict mode: reported
// later), __activemask (its mask: the warp's threads)
__attribute__((noinline)) static unsigned unusual_call(int kind, unsigned mask, int width, const char *file, int line) {
    int t = g_cur, w = t / OPSDK_SIM_WARP, lane = t % OPSDK_SIM_WARP;
    Warp &warp = g_warps[w];
    if (kind == ACTIVEMASK) mask = warp.exist;
    if (!(mask >> lane & 1))
        fail(OPSDK_ERR_WARP_CALLER, file, line,
             "%s(mask 0x%08x) called by lane %d of warp %d, which is not in its mask: every thread "
             "that calls it must be named in the mask (undefined on a GPU)",
             kWarpNames[kind], mask, lane, w);
    if (kind <= SHFL_XOR && (width < 1 || width > 32 || (width & (width - 1))))
        fail(OPSDK_ERR_WARP_WIDTH, file, line,
             "%s(..., width=%d) by lane %d of warp %d: width must be a power of two from 1 to 32",
             kWarpNames[kind], width, lane, w);
    if (g_strict && (mask & warp.done)) {
        char gone[160];
        lanes_text(gone, sizeof gone, mask & warp.done);
        // deferred: a divergent barrier the early exit also causes is the verdict that explains it
        defer_lane(OPSDK_ERR_WARP_EXITED, g_cur, file, line,
             "%s(mask 0x%08x) by lane %d of warp %d names lanes %s, which have exited (strict mode: "
             "a mask naming lanes that have exited is undefined on Volta and later GPUs; compute the "
             "mask with __ballot_sync or __activemask before the branch)",
             kWarpNames[kind], mask, lane, w, gone);
    }
    return mask;
}

EXPORT uint64_t opsdk_sim_warp(int kind, unsigned mask, uint64_t value, int size, int arg, int width,
                               int *pred, const char *file, int line) {
    tick();
    unsigned t = (unsigned)g_cur, lane = t % OPSDK_SIM_WARP;
    Warp &warp = g_warps[t / OPSDK_SIM_WARP];
    Lane &l = g_lanes[t];
    l.file = file, l.line = line, l.pc = RETURN_PC();
    // one test for everything unusual: __activemask, a caller outside its mask, a width that is
    // not a power of two from 1 to 32 (the non-shuffles pass 32), strict mode
    if (__builtin_expect((kind == ACTIVEMASK) | !((mask >> lane) & 1) | ((unsigned)(width - 1) > 31u) |
                             ((width & (width - 1)) != 0) | g_strict, 0))
        mask = unusual_call(kind, mask, width, file, line);
    // the group of this collective: the one the warp's other lanes are at (the same kind and
    // mask; __activemask also by its site), else a new one
    unsigned act = warp.active;
    int gi = -1;
    for (unsigned m = act; m; m &= m - 1) {
        int i = __builtin_ctz(m);
        const Group &g = warp.groups[i];
        if (g.kind == kind && g.mask == mask &&
            (kind != ACTIVEMASK || (g.line == line && !strcmp(g.file, file)))) {
            gi = i;
            break;
        }
    }
    if (gi < 0) {
        gi = __builtin_ctz(~act);
        warp.active = act | (1u << gi);
        Group &g = warp.groups[gi];
        g.kind = kind, g.mask = mask, g.arrived = 0, g.file = file, g.line = line, g.pc = l.pc;
    }
    l.state = AT_WARP, l.value = value, l.arg = (signed char)arg;
    l.group = (signed char)gi, l.size = (signed char)size, l.width = (signed char)width, l.result_pred = 0;
    Group &g = warp.groups[gi];
    unsigned arrived = g.arrived | (1u << lane);
    g.arrived = arrived;
    unsigned needed = mask & warp.exist & ~warp.done;
    if ((arrived & needed) == needed && kind != ACTIVEMASK) resolve(t / OPSDK_SIM_WARP, gi, (int)t);
    else block_current();
    if (pred) *pred = l.result_pred;
    return l.result;
}
