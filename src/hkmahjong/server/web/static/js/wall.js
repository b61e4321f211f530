// 驗牌牆 the wall check, done in the browser: the same hashes and the same shuffle as the engine
// (engine/record.py, engine/wall.py), so nobody has to trust the server's word for it.
//
// commitment = hex SHA-256 of the hand seed's bytes (published when the hand starts);
// hand seed  = SHA-256("hkmj/hand-seed/v1\0" + match seed + hand number as 8 bytes, big-endian);
// the wall   = the full tile set shuffled by Python's random.Random(SHA-256("hkmahjong/wall\0" +
//              seed)), three dice from random.Random(SHA-256("hkmahjong/dice\0" + seed)), built
//              into four walls and broken at the dice (docs/rules.md §3). random.Random is MT19937
//              seeded by init_by_array with the 32-bit words of int(digest + SHA-512(digest)).
// WebCrypto's SubtleCrypto.digest when the page has it (a secure context), else the SHA code below.

const enc = new TextEncoder();

export function hexToBytes(hex) {
  const clean = String(hex).trim().toLowerCase();
  if (!/^([0-9a-f]{2})+$/.test(clean)) return null;
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.substr(2 * i, 2), 16);
  return out;
}
export const bytesToHex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
};

/** Whether this page can use WebCrypto (only in a secure context: https or localhost). */
export const hasSubtle = () => !!(globalThis.crypto && globalThis.crypto.subtle);

export async function sha256(bytes) {
  if (hasSubtle()) return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return sha256js(bytes);
}
export async function sha512(bytes) {
  if (hasSubtle()) return new Uint8Array(await crypto.subtle.digest("SHA-512", bytes));
  return sha512js(bytes);
}

// -- SHA-256 and SHA-512 in plain JS (FIPS 180-4) -------------------------------------------------
const K256 = Uint32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

export function sha256js(bytes) {
  const h = Uint32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const len = bytes.length;
  const padded = new Uint8Array(Math.ceil((len + 9) / 64) * 64);
  padded.set(bytes);
  padded[len] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(len / 0x20000000));
  view.setUint32(padded.length - 4, (len * 8) >>> 0);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    const add = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i++) h[i] = (h[i] + add[i]) >>> 0;
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) ov.setUint32(4 * i, h[i]);
  return out;
}

const K512 = [
  "428a2f98d728ae22", "7137449123ef65cd", "b5c0fbcfec4d3b2f", "e9b5dba58189dbbc", "3956c25bf348b538",
  "59f111f1b605d019", "923f82a4af194f9b", "ab1c5ed5da6d8118", "d807aa98a3030242", "12835b0145706fbe",
  "243185be4ee4b28c", "550c7dc3d5ffb4e2", "72be5d74f27b896f", "80deb1fe3b1696b1", "9bdc06a725c71235",
  "c19bf174cf692694", "e49b69c19ef14ad2", "efbe4786384f25e3", "0fc19dc68b8cd5b5", "240ca1cc77ac9c65",
  "2de92c6f592b0275", "4a7484aa6ea6e483", "5cb0a9dcbd41fbd4", "76f988da831153b5", "983e5152ee66dfab",
  "a831c66d2db43210", "b00327c898fb213f", "bf597fc7beef0ee4", "c6e00bf33da88fc2", "d5a79147930aa725",
  "06ca6351e003826f", "142929670a0e6e70", "27b70a8546d22ffc", "2e1b21385c26c926", "4d2c6dfc5ac42aed",
  "53380d139d95b3df", "650a73548baf63de", "766a0abb3c77b2a8", "81c2c92e47edaee6", "92722c851482353b",
  "a2bfe8a14cf10364", "a81a664bbc423001", "c24b8b70d0f89791", "c76c51a30654be30", "d192e819d6ef5218",
  "d69906245565a910", "f40e35855771202a", "106aa07032bbd1b8", "19a4c116b8d2d0c8", "1e376c085141ab53",
  "2748774cdf8eeb99", "34b0bcb5e19b48a8", "391c0cb3c5c95a63", "4ed8aa4ae3418acb", "5b9cca4f7763e373",
  "682e6ff3d6b2b8a3", "748f82ee5defb2fc", "78a5636f43172f60", "84c87814a1f0ab72", "8cc702081a6439ec",
  "90befffa23631e28", "a4506cebde82bde9", "bef9a3f7b2c67915", "c67178f2e372532b", "ca273eceea26619c",
  "d186b8c721c0c207", "eada7dd6cde0eb1e", "f57d4f7fee6ed178", "06f067aa72176fba", "0a637dc5a2c898a6",
  "113f9804bef90dae", "1b710b35131c471b", "28db77f523047d84", "32caab7b40c72493", "3c9ebe0a15c9bebc",
  "431d67c49c100d4c", "4cc5d4becb3e42b6", "597f299cfc657e2a", "5fcb6fab3ad6faec", "6c44198c4a475817",
].map((x) => BigInt(`0x${x}`));
const M64 = (1n << 64n) - 1n;

export function sha512js(bytes) {
  const h = ["6a09e667f3bcc908", "bb67ae8584caa73b", "3c6ef372fe94f82b", "a54ff53a5f1d36f1",
    "510e527fade682d1", "9b05688c2b3e6c1f", "1f83d9abfb41bd6b", "5be0cd19137e2179"].map((x) => BigInt(`0x${x}`));
  const len = bytes.length;
  const padded = new Uint8Array(Math.ceil((len + 17) / 128) * 128);
  padded.set(bytes);
  padded[len] = 0x80;
  const view = new DataView(padded.buffer);
  view.setBigUint64(padded.length - 8, BigInt(len) * 8n);
  const rotr = (x, n) => ((x >> n) | (x << (64n - n))) & M64;
  const w = new Array(80);
  for (let off = 0; off < padded.length; off += 128) {
    for (let i = 0; i < 16; i++) w[i] = view.getBigUint64(off + 8 * i);
    for (let i = 16; i < 80; i++) {
      const s0 = rotr(w[i - 15], 1n) ^ rotr(w[i - 15], 8n) ^ (w[i - 15] >> 7n);
      const s1 = rotr(w[i - 2], 19n) ^ rotr(w[i - 2], 61n) ^ (w[i - 2] >> 6n);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) & M64;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 80; i++) {
      const t1 = (hh + (rotr(e, 14n) ^ rotr(e, 18n) ^ rotr(e, 41n)) + ((e & f) ^ (~e & M64 & g)) + K512[i] + w[i]) & M64;
      const t2 = ((rotr(a, 28n) ^ rotr(a, 34n) ^ rotr(a, 39n)) + ((a & b) ^ (a & c) ^ (b & c))) & M64;
      hh = g; g = f; f = e; e = (d + t1) & M64; d = c; c = b; b = a; a = (t1 + t2) & M64;
    }
    const add = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i++) h[i] = (h[i] + add[i]) & M64;
  }
  const out = new Uint8Array(64);
  const ov = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) ov.setBigUint64(8 * i, h[i]);
  return out;
}

// -- Python's random.Random: MT19937 ---------------------------------------------------------------
class PyRandom {
  /** random.Random(seed_bytes): seeded as CPython 3 does for bytes (version 2). */
  static async fromBytes(seed) {
    const digest = await sha512(seed);
    const big = concat(seed, digest); // int.from_bytes(seed + sha512(seed), "big")
    const words = [];
    for (let end = big.length; end > 0; end -= 4) {
      let x = 0;
      for (let i = Math.max(0, end - 4); i < end; i++) x = (x * 256 + big[i]) >>> 0;
      words.push(x >>> 0); // least significant word first
    }
    while (words.length > 1 && words[words.length - 1] === 0) words.pop();
    const r = new PyRandom();
    r.initByArray(words);
    return r;
  }

  initGenrand(s) {
    this.mt = new Uint32Array(624);
    this.mt[0] = s >>> 0;
    for (let i = 1; i < 624; i++) {
      const prev = this.mt[i - 1] ^ (this.mt[i - 1] >>> 30);
      this.mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.mti = 624;
  }

  initByArray(key) {
    this.initGenrand(19650218);
    const mt = this.mt;
    let i = 1; let j = 0;
    for (let k = Math.max(624, key.length); k; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
      i++; j++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (let k = 623; k; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000;
  }

  genrandUint32() {
    const mt = this.mt;
    if (this.mti >= 624) {
      for (let k = 0; k < 624; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7fffffff);
        mt[k] = mt[(k + 397) % 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.mti = 0;
    }
    let y = mt[this.mti++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** _randbelow(n) for n < 2**32: getrandbits(n.bit_length()) until below n. */
  randbelow(n) {
    const k = 32 - Math.clz32(n);
    for (;;) {
      const r = this.genrandUint32() >>> (32 - k);
      if (r < n) return r;
    }
  }

  shuffle(x) {
    for (let i = x.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      [x[i], x[j]] = [x[j], x[i]];
    }
  }
}

// -- the wall ---------------------------------------------------------------------------------------
/** A tile index (the engine's Tile, 0–41) as MPSZ text: 5p, 7z, bonus 1f–4f and 1g–4g. */
export function tileCode(i) {
  if (i < 27) return `${(i % 9) + 1}${"mps"[Math.floor(i / 9)]}`;
  if (i < 34) return `${i - 26}z`;
  return i < 38 ? `${i - 33}f` : `${i - 37}g`;
}

export const DEAL_POSITIONS = (() => {
  const pos = [[], [], [], []];
  for (let rnd = 0; rnd < 3; rnd++) for (let s = 0; s < 4; s++) for (let k = 0; k < 4; k++) pos[s].push(16 * rnd + 4 * s + k);
  pos[0].push(48, 52); pos[1].push(49); pos[2].push(50); pos[3].push(51);
  return pos;
})();

/** 洗牌, 擲骰, 砌牌, 開牌: the hand's wall in drawing order and its dice, from the seed. */
export async function deriveWall(seed, bonusTiles = true) {
  const tiles = [];
  for (let k = 0; k < 34; k++) for (let c = 0; c < 4; c++) tiles.push(k);
  if (bonusTiles) for (let k = 34; k < 42; k++) tiles.push(k);
  const shuffler = await PyRandom.fromBytes(await sha256(concat(enc.encode("hkmahjong/wall\0"), seed)));
  shuffler.shuffle(tiles);
  const roller = await PyRandom.fromBytes(await sha256(concat(enc.encode("hkmahjong/dice\0"), seed)));
  const dice = [0, 0, 0].map(() => 1 + roller.randbelow(6));
  const n = tiles.length;
  const perWall = n / 8;
  const stacks = n / 2;
  const total = dice[0] + dice[1] + dice[2];
  const wallSeat = (total - 1) % 4;
  const start = (perWall * ((4 - wallSeat) % 4) + total) % stacks;
  const wall = [];
  for (let k = 0; k < stacks; k++) {
    const s = (start + k) % stacks;
    wall.push(tiles[2 * s], tiles[2 * s + 1]);
  }
  const codes = wall.map(tileCode);
  const deal = {};
  "ESWN".split("").forEach((w, s) => { deal[w] = DEAL_POSITIONS[s].map((p) => codes[p]); });
  return { wall: codes, dice, deal };
}

/** The seed of hand `number` (0-based) of a match: SHA-256 of the match seed and the number. */
export async function handSeed(matchSeed, number) {
  const n = new Uint8Array(8);
  new DataView(n.buffer).setBigUint64(0, BigInt(number));
  return sha256(concat(enc.encode("hkmj/hand-seed/v1\0"), matchSeed, n));
}

/**
 * 驗牌牆: check `seedHex` against `commitment`; when it holds, build the wall and compare its deal
 * with the hand's (`deal`: seat → tiles as dealt), and (`matchSeed`) the seed's derivation.
 * Returns {seedOk, dealOk, matchOk, wall, dice} (null where nothing could be checked).
 */
export async function checkWall({ seedHex, commitment, deal = null, bonusTiles = true, hand = null, matchSeedHex = null, matchCommitment = null }) {
  const out = { seedOk: false, dealOk: null, matchOk: null, wall: null, dice: null };
  const seed = hexToBytes(seedHex);
  if (!seed) return out;
  out.seedOk = bytesToHex(await sha256(seed)) === String(commitment).toLowerCase();
  if (!out.seedOk) return out;
  const built = await deriveWall(seed, bonusTiles);
  out.wall = built.wall;
  out.dice = built.dice;
  if (deal) out.dealOk = "ESWN".split("").every((w) => JSON.stringify(built.deal[w]) === JSON.stringify(deal[w]));
  const matchSeed = matchSeedHex ? hexToBytes(matchSeedHex) : null;
  if (matchSeed && hand !== null) {
    const same = bytesToHex(await handSeed(matchSeed, hand)) === bytesToHex(seed);
    out.matchOk = same && bytesToHex(await sha256(matchSeed)) === String(matchCommitment).toLowerCase();
  }
  return out;
}
