import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { CompareView } from "./compare-view.js";
import { InboxView } from "./inbox-view.js";
import { RunView } from "./run-view.js";
import { RunsView } from "./runs-view.js";
import "./style.css";

/** The view the address names: #/ (runs), #/runs/<id>, #/inbox, #/compare/<id>,<id>… */
function route(hash: string): { view: string; arg: string } {
  const [, view = "", ...rest] = hash.replace(/^#/, "").split("/");
  return { view, arg: decodeURIComponent(rest.join("/")) };
}

function App() {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const moved = () => setHash(location.hash);
    addEventListener("hashchange", moved);
    // An effect runs after the first paint: a hash that changed before it listened is read now.
    moved();
    return () => removeEventListener("hashchange", moved);
  }, []);
  const { view, arg } = route(hash);
  return (
    <>
      <header>
        <a class="brand" href="#/">
          planloop
        </a>
        <nav>
          <a href="#/" class={view === "" || view === "runs" ? "here" : ""}>
            Runs
          </a>
          <a href="#/inbox" class={view === "inbox" ? "here" : ""}>
            Inbox
          </a>
          <a href="#/compare/" class={view === "compare" ? "here" : ""}>
            Compare
          </a>
        </nav>
      </header>
      <main>
        {view === "runs" && arg !== "" ? (
          <RunView key={arg} runId={arg} />
        ) : view === "inbox" ? (
          <InboxView />
        ) : view === "compare" ? (
          <CompareView key={arg} ids={arg === "" ? [] : arg.split(",")} />
        ) : (
          <RunsView />
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById("app")!);
