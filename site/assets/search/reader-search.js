/* Search as a reader at the table needs it.
 *
 * Loaded before Material's bundle (mkdocs.yml, extra.polyfills), it does two
 * things to the search Material already has, through the one door Material
 * leaves open, its Web Worker:
 *
 * 1. Lighter pages. Material loads the whole search index, and starts the
 *    worker that indexes it, on every page, whether or not the reader
 *    searches. Here both wait until the reader reaches for search (touches or
 *    focuses the search box, or arrives from a search result, whose terms the
 *    page highlights). The index file is then read once and the browser's
 *    cache keeps it for the next page; opened from disk, it comes as a
 *    script, as before.
 * 2. Ranking by the reader's game. A card whose name is what was typed comes
 *    first, and the cards of the game whose page the reader is on come before
 *    the other game's: "Station" on a Station Master page is Station Master's
 *    Station, on a Trick of the Rails page its own stations first. Both games'
 *    cards stay in the list, each labelled (generator/search.py).
 *
 * 3. Every card's own entry. `stationmaster cards` writes them to cards.js
 *    beside this file (generator/search_file.py); they join the index before
 *    the worker reads it, each after its page's own entries, with their
 *    labels (Material's "tags") shown but taken out of the searched fields.
 *
 * If Material changes how it talks to its worker, search still works, with
 * Material's own order and without the card entries.
 */
(() => {
  "use strict";

  // Material's messages to and from its search worker (SearchMessageType).
  const SETUP = 0;
  const QUERY = 2;
  const RESULT = 3;
  const INDEX_FILE = /(^|\/)search\/search_index\.js(on)?([?#]|$)/;
  const CARD = "#card-";
  const here = document.currentScript ? document.currentScript.src : location.href;

  /* -- 1. Load the index only when search is wanted ----------------------- */

  let wanted = false;
  const waiting = [];
  const want = () => {
    if (wanted) return;
    wanted = true;
    for (const go of waiting.splice(0)) go();
  };
  const whenWanted = go => (wanted ? go() : waiting.push(go));

  // Served: Material reads search_index.json with XMLHttpRequest.
  const open = XMLHttpRequest.prototype.open;
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.__searchIndex = INDEX_FILE.test(String(url));
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (...body) {
    if (this.__searchIndex && !wanted) return void whenWanted(() => send.apply(this, body));
    return send.apply(this, body);
  };

  // From disk: Material adds a <script> for search_index.js to the head.
  const append = Node.prototype.appendChild;
  Node.prototype.appendChild = function (node) {
    if (!wanted && node instanceof HTMLScriptElement && INDEX_FILE.test(node.src)) {
      whenWanted(() => append.call(this, node));
      return node;
    }
    return append.call(this, node);
  };

  // The cards' entries come with the index: asked for when search is wanted.
  let cardsLoaded = null;
  const loadCards = () => {
    if (!cardsLoaded)
      cardsLoaded = new Promise(done => {
        const script = document.createElement("script");
        script.src = new URL("cards.js", here).href;
        script.onload = script.onerror = () => done(Array.isArray(window.__cardEntries) ? window.__cardEntries : []);
        append.call(document.head, script);
      });
    return cardsLoaded;
  };
  whenWanted(loadCards);

  // Each card after its page's own documents (a section must follow its page).
  const withCards = (setup, cards) => {
    const docs = setup.docs;
    if (!cards.length || docs.some(doc => doc.location.includes(CARD))) return setup;
    const byPage = new Map();
    for (const card of cards) {
      const page = card.location.split("#")[0];
      if (!byPage.has(page)) byPage.set(page, []);
      byPage.get(page).push(card);
    }
    const last = new Map();
    docs.forEach((doc, at) => last.set(doc.location.split("#")[0], at));
    const merged = [];
    docs.forEach((doc, at) => {
      merged.push(doc);
      const page = doc.location.split("#")[0];
      if (last.get(page) === at) merged.push(...(byPage.get(page) || []));
    });
    const fields = { ...setup.config.fields };
    delete fields.tags;
    return { ...setup, config: { ...setup.config, fields }, docs: merged };
  };

  const reaching = event => {
    const target = event.target;
    if (target instanceof Element && target.closest(".md-search, [for='__search'], #__search")) want();
  };
  for (const kind of ["pointerdown", "focusin", "change"]) document.addEventListener(kind, reaching, true);
  // Arriving from a result: the page highlights the searched words, which needs the index.
  if (new URL(location.href).searchParams.has("h")) want();

  /* -- 2. Rank by name, then by the reader's game -------------------------- */

  let separator = /[\s\-,:;!?=[\]()"/]+|\.(?!\d)/;
  let query = "";

  const words = text =>
    text
      .toLowerCase()
      .split(separator)
      .filter(word => word);

  const decoder = document.createElement("textarea");
  const plain = html => {
    decoder.innerHTML = html.replace(/<[^>]*>/g, "");
    return decoder.value;
  };

  // The game is the first folder of a page's address, relative to the site.
  const gameOf = location_ => {
    const slash = location_.indexOf("/");
    return slash > 0 ? location_.slice(0, slash) : "";
  };
  const readerGame = () => {
    const config = document.getElementById("__config");
    if (!config) return "";
    try {
      const base = JSON.parse(config.textContent).base || ".";
      const root = new URL(base.endsWith("/") ? base : `${base}/`, location.href).href;
      return location.href.startsWith(root) ? gameOf(location.href.slice(root.length)) : "";
    } catch (error) {
      return "";
    }
  };

  // exact name here > name here > exact name elsewhere > name elsewhere > rest
  const rankOf = (item, asked, here) => {
    if (!item.location.includes(CARD)) return 0;
    const name = words(plain(item.title));
    const exact = name.join(" ") === asked.join(" ");
    const named = asked.every(word => name.some(part => part.startsWith(word)));
    if (!named) return 0;
    const home = here !== "" && gameOf(item.location) === here;
    return (home || here === "" ? 3 : 1) + (exact ? 1 : 0);
  };

  const rerank = result => {
    const asked = words(query);
    if (!asked.length || !result || !Array.isArray(result.items)) return result;
    const here = readerGame();
    let top = 0;
    for (const group of result.items) for (const item of group) top = Math.max(top, item.score);
    let moved = false;
    for (const group of result.items)
      for (const item of group) {
        const rank = rankOf(item, asked, here);
        if (rank) {
          // Scores stay in their order within a rank; a higher rank is above all of a lower one.
          item.score += (top + 1) * rank;
          moved = true;
        }
      }
    if (!moved) return result;
    for (const group of result.items) group.sort((a, b) => b.score - a.score);
    result.items.sort((a, b) => b[0].score - a[0].score);
    return result;
  };

  /* -- The worker, started when first spoken to ---------------------------- */

  const RealWorker = window.Worker;
  if (typeof RealWorker !== "function") return;

  class SearchWorker extends EventTarget {
    constructor(url, options) {
      super();
      this.url = url;
      this.options = options;
      this.real = null;
      this.onmessage = null;
      this.onerror = null;
    }

    start() {
      if (this.real) return this.real;
      const real = new RealWorker(this.url, this.options);
      real.addEventListener("message", event => this.receive(event.data));
      real.addEventListener("error", event => {
        const copy = new ErrorEvent("error", { message: event.message, error: event.error });
        this.dispatchEvent(copy);
        if (this.onerror) this.onerror(copy);
      });
      this.real = real;
      return real;
    }

    receive(data) {
      if (data && data.type === RESULT) data = { ...data, data: rerank(data.data) };
      const event = new MessageEvent("message", { data });
      this.dispatchEvent(event);
      if (this.onmessage) this.onmessage(event);
    }

    postMessage(data, transfer) {
      if (data && data.type === SETUP && data.data && data.data.config && Array.isArray(data.data.docs)) {
        try {
          separator = new RegExp(data.data.config.separator);
        } catch (error) {
          /* keep the default */
        }
        // The index waits for the cards' entries, then goes to the worker.
        loadCards().then(cards => this.start().postMessage({ ...data, data: withCards(data.data, cards) }, transfer));
        return;
      }
      if (data && data.type === QUERY && typeof data.data === "string") query = data.data;
      this.start().postMessage(data, transfer);
    }

    terminate() {
      if (this.real) this.real.terminate();
    }
  }

  window.Worker = function Worker(url, options) {
    // Only the search worker waits; any other is made at once.
    return /workers\/search\./.test(String(url)) ? new SearchWorker(url, options) : new RealWorker(url, options);
  };
})();
