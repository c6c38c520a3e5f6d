// The time-zone menu (accounts.zones): the browser's own zone goes first, under the heading the
// server wrote in data-browser-zone, and is chosen when no zone is set yet (UTC, the empty value).
// Without scripts the grouped menu works as it is.
(function () {
  "use strict";
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (e) {
    return;
  }
  document.querySelectorAll("select[data-browser-zone]").forEach((select) => {
    const option = Array.from(select.options).find((o) => o.value === zone);
    if (!option) return;
    const unset = select.value === "";
    const group = document.createElement("optgroup");
    group.label = select.dataset.browserZone;
    group.className = "browser-zone";
    group.appendChild(option);
    select.insertBefore(group, select.firstChild);  // first of all, before UTC and the regions
    if (unset) option.selected = true;
  });
})();
