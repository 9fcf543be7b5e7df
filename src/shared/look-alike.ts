// What the eye sees in a label: a confusable skeleton (Unicode TS #39, section 4) and the scripts
// of its letters, so a button that only looks like one of ours (Cyrillic "Оpen", Greek "Οpen",
// small capitals "ᴏᴘᴇɴ", "Open" with a Hangul filler) is known as ours. Pure: no `vscode` (the
// notification rules use it; the webview may).
//
// The table is the part of Unicode's confusables.txt (v13, as packaged by `unhomoglyph` 1.0.6)
// whose target is one or two ASCII letters or digits, less what NFKC already folds (fullwidth,
// mathematical letters), plus the Latin small capitals confusables.txt leaves out. The whole file
// (6,300 entries, 100 KB) would take the release bundle past its 400 KB goal; the rest of it maps
// to targets no button word of ours is made of. Doubt is settled the safe way: marks are dropped,
// case is folded, and a label mixing scripts is not a button at all (`mixedScripts`).
// docs/decisions.md, "What you see is what you answer".

/** Target (one or two ASCII letters or digits) <- every character that looks like it. */
const LOOKS_LIKE: readonly (readonly [string, string])[] = [
  ["2", '\uA75A\u01A7\u03E8\uA644\u14BF\uA6EF'],
  ["3", '\uA7AB\u021C\u01B7\uA76A\u2CCC\u0417\u04E0'],
  ["4", '\u13CE'],
  ["5", '\u01BC'],
  ["6", '\u2CD2\u0431\u13EE'],
  ["8", '\u0B03\u09EA\u0A6A\u0223\u0222'],
  ["9", '\u0A67\u0B68\u09ED\u0D6D\uA76E\u2CCA'],
  ["A", '\u0391\u0410\u13AA\u15C5\uA4EE'],
  ["AA", '\uA732'],
  ["AE", '\u00C6\u04D4'],
  ["AO", '\uA734'],
  ["AU", '\uA736'],
  ["AV", '\uA738\uA73A'],
  ["AY", '\uA73C'],
  ["B", '\uA7B4\u0392\u0412\u13F4\u15F7\uA4D0'],
  ["C", '\u03F9\u2CA4\u0421\u13DF\uA4DA'],
  ["D", '\u13A0\u15DE\u15EA\uA4D3'],
  ["E", '\u22FF\u0395\u0415\u2D39\u13AC\uA4F0'],
  ["F", '\uA798\u03DC\u15B4\uA4DD'],
  ["G", '\u050C\u13C0\u13F3\uA4D6'],
  ["H", '\u0397\u2C8E\u041D\u13BB\u157C\uA4E7'],
  ["J", '\uA7B2\u037F\u0408\u13AB\u148D\uA4D9'],
  ["K", '\u039A\u2C94\u041A\u13E6\u16D5\uA4D7'],
  ["L", '\u2CD0\u13DE\u14AA\uA4E1'],
  ["M", '\u039C\u03FA\u2C98\u041C\u13B7\u15F0\u16D6\uA4DF'],
  ["N", '\u039D\u2C9A\uA4E0'],
  ["O", '0\u07C0\u09E6\u0B66\u3007\u039F\u2C9E\u041E\u0555\u2D54\u12D0\u0B20\uA4F3'],
  ["OE", '\u0152'],
  ["OO", '\uA74E\uA698'],
  ["P", '\u03A1\u2CA2\u0420\u13E2\u146D\uA4D1'],
  ["Q", '\u2D55'],
  ["R", '\u01A6\u13A1\u13D2\u1587\uA4E3'],
  ["S", '\u0405\u054F\u13D5\u13DA\uA4E2'],
  ["T", '\u22A4\u27D9\u03A4\u2CA6\u0422\u13A2\uA4D4'],
  ["T3", '\uA728'],
  ["U", '\u222A\u22C3\u054D\u1200\u144C\uA4F4'],
  ["V", '\u0667\u06F7\u0474\u2D38\u13D9\u142F\uA6DF\uA4E6'],
  ["W", '\u051C\u13B3\u13D4\uA4EA'],
  ["X", '\u166D\u2573\uA7B3\u03A7\u2CAC\u0425\u2D5D\u16B7\uA4EB'],
  ["Y", '\u03A5\u03D2\u2CA8\u0423\u04AE\u13A9\u13BD\uA4EC'],
  ["Z", '\u0396\u13C3\uA4DC'],
  ["a", '\u237A\u0251\u03B1\u0430'],
  ["aa", '\uA733'],
  ["ae", '\u00E6\u04D5'],
  ["ao", '\uA735'],
  ["au", '\uA737'],
  ["av", '\uA739\uA73B'],
  ["ay", '\uA73D'],
  ["b", '\u0184\u042C\u13CF\u1472\u15AF'],
  ["bl", '\u042B'],
  ["c", '\u1D04\u03F2\u2CA5\u0441\uABAF'],
  ["d", '\u0501\u13E7\u146F\uA4D2'],
  ["dz", '\u02A3'],
  ["e", '\u212E\uAB32\u0435\u04BD'],
  ["f", '\uAB35\uA799\u1E9D\u0584'],
  ["g", '\u0261\u1D83\u018D\u0581'],
  ["h", '\u04BB\u0570\u13C2'],
  ["i", '\u02DB\u2373\u0131\u026A\u0269\u03B9\u1FBE\u037A\u0456\uA647\u04CF\uAB75\u13A5'],
  ["j", '\u03F3\u0458'],
  ["l", '1\u05C0\u007C\u2223\u23FD\uFFE8\u0661\u06F1I\u0196\u01C0\u0399\u2C92\u0406\u04C0\u05D5\u05DF\u0627\uFE8E\uFE8D\u07CA\u2D4F\u16C1\uA4F2'],
  ["lO", '\u042E'],
  ["ll", '\u2016\u2225\u01C1\u05F0'],
  ["ls", '\u02AA'],
  ["lt", '\u20B6'],
  ["lz", '\u02AB'],
  // п and η are not in confusables.txt; in most sans-serif fonts they read as n ("Ореп", #52).
  ["n", '\u0578\u057C\u043F\u03B7'],
  ["o", '\u0C02\u0C82\u0D02\u0D82\u0966\u0A66\u0AE6\u0BE6\u0C66\u0CE6\u0D66\u0E50\u0ED0\u1040\u0665\u06F5\u1D0F\u1D11\uAB3D\u03BF\u03C3\u2C9F\u043E\u10FF\u0585\u05E1\u0647\uFEEB\uFEEC\uFEEA\uFEE9\u06BE\uFBAC\uFBAD\uFBAB\uFBAA\u06C1\uFBA8\uFBA9\uFBA7\uFBA6\u06D5\u0D20\u101D'],
  ["oe", '\u0153'],
  ["oo", '\u221E\uA74F\uA699'],
  ["p", '\u2374\u03C1\u03F1\u2CA3\u0440'],
  ["q", '\u051B\u0563\u0566'],
  ["r", '\uAB47\uAB48\u1D26\u2C85\u0433\uAB81'],
  ["rn", 'm'],
  ["s", '\uA731\u01BD\u0455\uABAA'],
  ["tf", '\uA777'],
  ["ts", '\u02A6'],
  ["u", '\uA79F\u1D1C\uAB4E\uAB52\u028B\u03C5\u057D'],
  ["ue", '\u1D6B'],
  ["uo", '\uAB63'],
  ["v", '\u2228\u22C1\u1D20\u03BD\u0475\u05D8\uABA9'],
  ["w", '\u026F\u1D21\u0461\u051D\u0561\uAB83'],
  ["x", '\u166E\u00D7\u292B\u292C\u2A2F\u0445\u1541\u157D'],
  ["y", '\u0263\u1D8C\u028F\u1EFF\uAB5A\u03B3\u213D\u0443\u04AF\u10E7'],
  ["z", '\u1D22\uAB93'],
];

/** The Latin small capitals confusables.txt does not map (it maps ᴀ ᴄ ᴏ ᴠ ᴡ ᴢ ʏ ꜱ and a few more above). */
const SMALL_CAPITALS = 'a\u1D00b\u0299c\u1D04d\u1D05e\u1D07f\uA730g\u0262h\u029Ci\u026Aj\u1D0Ak\u1D0Bl\u029Fm\u1D0Dn\u0274o\u1D0Fp\u1D18q\uA7AFr\u0280s\uA731t\u1D1Bu\u1D1Cv\u1D20w\u1D21y\u028Fz\u1D22';

/** Each look-alike to its ASCII letter: a constant table, made once. */
const FOLD: ReadonlyMap<string, string> = foldTable();

function foldTable(): Map<string, string> {
  const fold = new Map<string, string>();
  for (const [to, from] of LOOKS_LIKE) for (const c of from) fold.set(c, to);
  for (let i = 0; i < SMALL_CAPITALS.length; i += 2) {
    const to = SMALL_CAPITALS[i] as string;
    const from = SMALL_CAPITALS[i + 1] as string;
    if (!fold.has(from)) fold.set(from, to);
  }
  return fold;
}

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
const mapped = (s: string) => [...s].map((c) => FOLD.get(c) ?? c).join('');

/**
 * The label as the eye reads it: NFKC, default-ignorable characters removed, look-alikes folded to
 * their ASCII letter, case folded, then only letters and digits (marks, spaces and punctuation
 * dropped, so "Opén", "O p e n" and "Open!" read as "open"). Two labels with one skeleton can be
 * taken for each other.
 */
export function skeleton(label: string): string {
  const base = label.normalize('NFKC').replace(IGNORABLE, '').normalize('NFD');
  // Capital I looks like small l (confusables.txt), and case is folded: so i, I and l are one letter.
  return mapped(mapped(base).toLowerCase()).replace(/i/g, 'l').replace(/[^\p{L}\p{N}]/gu, '');
}

export { mixedScripts, scriptsOf } from './scripts';
