/**
 * The one order of text for everything Aureus sorts (ids, names, paths, codes in what it commits,
 * plans and prints). Why not `String#localeCompare` or `new Intl.Collator()`: both take the
 * process's locale from LANG / LC_ALL (Node's ICU honours the variable even where the system has no
 * such locale installed), so the same world and seed committed a different tree under
 * `LANG=cs_CZ.UTF-8` (Czech sorts "ch" after "h") than under `LC_ALL=C`, and an import wrote its
 * factions in another order under `LC_ALL=haw_US.UTF-8`. The collation is pinned to en-US, the
 * locale those calls resolved to on the machines that wrote every committed world and fixture, so
 * every order stays what it was there, now on any machine.
 */
const EN_US = new Intl.Collator('en-US');

/** Compare two strings in Aureus's one text order (a sort comparator: negative, zero, positive). */
export const compareText: (a: string, b: string) => number = EN_US.compare;
