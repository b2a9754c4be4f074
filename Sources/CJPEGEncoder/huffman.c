// Huffman tables from symbol counts, as ITU-T T.81 Annex K.2 describes: code lengths by merging
// the two least frequent entries, one pseudo-symbol counted once so that no code is all ones,
// lengths above 16 bits brought down (figure K.3), symbols listed by length, then by value.
#include "encoder_internal.h"

#include <string.h>

void pq_huffman_table(const uint32_t counts[256], uint8_t bits[17], uint8_t values[256], int *value_count) {
    /* 257 entries: the symbols, and the reserved pseudo-symbol 256. */
    uint64_t freq[257];
    int size[257], next[257];
    for (int i = 0; i < 256; i++) freq[i] = counts[i];
    freq[256] = 1;
    for (int i = 0; i < 257; i++) {
        size[i] = 0;
        next[i] = -1;
    }
    for (;;) {
        /* The least frequency, then the next least; among equals the larger symbol. */
        int a = -1, b = -1;
        for (int i = 0; i < 257; i++)
            if (freq[i] && (a < 0 || freq[i] <= freq[a])) a = i;
        for (int i = 0; i < 257; i++)
            if (freq[i] && i != a && (b < 0 || freq[i] <= freq[b])) b = i;
        if (b < 0) break;
        freq[a] += freq[b];
        freq[b] = 0;
        /* Every symbol under either branch gets one bit longer; b's chain follows a's. */
        int i = a;
        for (;;) {
            size[i]++;
            if (next[i] < 0) break;
            i = next[i];
        }
        next[i] = b;
        for (i = b; i >= 0; i = next[i]) size[i]++;
    }
    int count[33] = {0};
    for (int i = 0; i < 257; i++)
        if (size[i]) count[size[i] > 32 ? 32 : size[i]]++;
    /* No code longer than 16 bits: take two codes from the longest length, give one to the next
       shorter length and two to a length that has a code to give up. */
    for (int i = 32; i > 16; i--) {
        while (count[i] > 0) {
            int j = i - 2;
            while (count[j] == 0) j--;
            count[i] -= 2;
            count[i - 1]++;
            count[j + 1] += 2;
            count[j]--;
        }
    }
    /* The pseudo-symbol had the longest code: remove it. */
    int longest = 16;
    while (longest > 0 && count[longest] == 0) longest--;
    if (longest > 0) count[longest]--;
    memset(bits, 0, 17);
    for (int i = 1; i <= 16; i++) bits[i] = (uint8_t)count[i];
    int n = 0;
    for (int length = 1; length <= 32; length++)
        for (int symbol = 0; symbol < 256; symbol++)
            if (size[symbol] == length) values[n++] = (uint8_t)symbol;
    *value_count = n;
}
