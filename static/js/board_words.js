// Words the game page (game.js) and the rules diagrams (diagram.js) both say about the board: a
// seat's marker and chevron (the colour agrees with the noun in many languages, so each is a
// message of its own) and the compass facings. Loaded before either script.
(function () {
  "use strict";
  const gettext = window.gettext || ((s) => s);
  const pgettext = window.pgettext || ((c, s) => s);
  window.BoardWords = {
    MARKER_OF: {
      1: gettext("red marker"),
      2: gettext("black marker"),
      3: gettext("yellow marker"),
      4: gettext("green marker"),
    },
    CHEVRON_OF: {
      1: gettext("red chevron facing %(facing)s, power %(power)s"),
      2: gettext("black chevron facing %(facing)s, power %(power)s"),
      3: gettext("yellow chevron facing %(facing)s, power %(power)s"),
      4: gettext("green chevron facing %(facing)s, power %(power)s"),
    },
    FACING: {
      // Translators: compass directions a chevron faces, abbreviated (north, north-east, ...).
      N: pgettext("facing", "N"),
      NE: pgettext("facing", "NE"),
      E: pgettext("facing", "E"),
      SE: pgettext("facing", "SE"),
      S: pgettext("facing", "S"),
      SW: pgettext("facing", "SW"),
      W: pgettext("facing", "W"),
      NW: pgettext("facing", "NW"),
    },
  };
})();
