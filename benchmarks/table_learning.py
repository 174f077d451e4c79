"""The table that learns, on the shared real sources: per split and group, right with nothing asked /
wrong with nothing asked (%) after the first K photos of each seeded order taught the table (its die
size and, with the safety rule's leave, its head), blind and told each photo's count; then how long
a refit and a read take.

    python benchmarks/table_learning.py [--data DIR] [--model DIR] [--seeds 5] [--ks 0,3,10,20] [--json FILE]

Reads ``byler_d6``, ``dice3`` and ``rune55`` (each group apart) from ``--data`` (default
``../shared/data``), their test splits with the project's reviewed labels, with the committed
models or those of ``--model`` (a folder training wrote: a candidate measured before it replaces
``models/``). Timings name the machine; take them with nothing else running.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path


from scorekeeper.evaluation.assessment import groups_in, machine_name
from scorekeeper.evaluation.dataset import load_dataset, with_label_fixes
from scorekeeper.evaluation.learning import TablePhotos, learn_and_score, tables_of
from scorekeeper.evaluation.score import ASKED_WHY
from scorekeeper.vision.reader import ModelError, OnnxDiceReader, open_reader
from scorekeeper.vision.table_memory import JUDGED_ROLLS, MAX_DICE, TableMemory

REPO = Path(__file__).resolve().parent.parent
SOURCES = ("byler_d6", "dice3", "rune55")


def measure_tables(reader: OnnxDiceReader, data: Path, ks: list[int], seeds: int) -> list[dict[str, object]]:
    """One row per (source, group, blind or told): the K columns."""
    rows: list[dict[str, object]] = []
    for source in SOURCES:
        folder = data / source
        items = with_label_fixes(load_dataset(folder, split="test"), folder)[0]
        for group, photos in sorted(tables_of(items, groups_in(folder / "split.csv")).items()):
            for counted in (False, True):
                table = TablePhotos(reader, photos, counted)
                cells: dict[str, object] = {}
                for k in ks:
                    if k >= len(photos):
                        continue
                    result = learn_and_score(reader, table, k, seeds)
                    cells[str(k)] = result.to_json()
                rows.append({"source": source, "group": group, "photos": len(photos), "told": counted, "k": cells})
                print(_line(rows[-1], ks), file=sys.stderr, flush=True)
    return rows


def _line(row: dict[str, object], ks: list[int]) -> str:
    cells = row["k"]
    assert isinstance(cells, dict)
    parts = []
    for k in ks:
        cell = cells.get(str(k))
        parts.append(f"{100 * cell['right_unasked_share']:5.1f} / {100 * cell['wrong_unasked_share']:3.1f}" if cell else "       -   ")
    name = f"{row['source']} {row['group']}".strip()
    return f"| {name} ({row['photos']}) | {'told' if row['told'] else 'blind'} | " + " | ".join(parts) + " |"


def _why_line(row: dict[str, object], ks: list[int]) -> str:
    """One row of the why-asked table: per K, photos asked (all orders together) as
    count / under the line / cut by the edge / held back by the head."""
    cells = row["k"]
    assert isinstance(cells, dict)
    parts = []
    for k in ks:
        cell = cells.get(str(k))
        parts.append(f"{cell['asked']}: " + " / ".join(str(cell["asked_why"][reason]) for reason in ASKED_WHY) if cell else "-")
    name = f"{row['source']} {row['group']}".strip()
    return f"| {name} ({row['photos']}) | {'told' if row['told'] else 'blind'} | " + " | ".join(parts) + " |"


def measure_times(reader: OnnxDiceReader, data: Path, runs: int = 5) -> dict[str, float]:
    """Seconds of a refit on a full table (``MAX_DICE`` crops, ``JUDGED_ROLLS`` judged rolls), and
    milliseconds of a read with and without a learned head (median of ``runs`` over the byler test photos)."""
    folder = data / "byler_d6"
    items = with_label_fixes(load_dataset(folder, split="test"), folder)[0]
    memory = TableMemory(reader)
    for item in (items * 20)[: max(JUDGED_ROLLS, 1) * 6]:
        memory.learn(item.load(), item.labels.boxes, item.labels.values.tolist(), item.labels.boxes[:0])
        if len(memory) >= MAX_DICE:
            break
    refits = []
    for _ in range(runs):
        start = time.perf_counter()
        learned = memory.head()
        refits.append(time.perf_counter() - start)
    frames = [item.load() for item in items[:10]]
    reads = {}
    for name, head in (("cold", None), ("learned", learned.head)):
        reader.learned = head
        times = []
        for _ in range(runs):
            for frame in frames:
                start = time.perf_counter()
                reader.read(frame, 6)
                times.append(time.perf_counter() - start)
        reads[name] = statistics.median(times) * 1000
    reader.learned = None
    return {
        "table_dice": len(memory), "judged_rolls": len(memory.rolls),
        "refit_s_median": round(statistics.median(refits), 3), "refit_s_runs": [round(t, 3) for t in refits],
        "read_ms_cold": round(reads["cold"], 2), "read_ms_learned": round(reads["learned"], 2),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data", help="the folder of labelled photo sources")
    parser.add_argument("--model", type=Path, metavar="DIR", help="a model folder training wrote, in place of the committed models")
    parser.add_argument("--seeds", type=int, default=5, help="orders of each table's photos (default 5)")
    parser.add_argument("--ks", default="0,3,10,20", help="photos taught before scoring, comma-separated (default 0,3,10,20)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write every number as JSON")
    parser.add_argument("--no-times", action="store_true", help="leave out the refit and read timings")
    args = parser.parse_args(argv)
    missing = [source for source in SOURCES if not (args.data / source / "split.csv").is_file()]
    if missing:
        print(f"table_learning: {', '.join(missing)} not found under {args.data}", file=sys.stderr)
        return 2
    ks = [int(k) for k in args.ks.split(",")]
    try:
        reader = open_reader(args.model, threads=2)
    except ModelError as exc:
        print(f"table_learning: {exc}", file=sys.stderr)
        return 2
    print(f"right with nothing asked / wrong with nothing asked (%), mean of {args.seeds} orders; machine: {machine_name()}")
    print("| split (photos) | count | " + " | ".join(f"K = {k}" for k in ks) + " |")
    print("|---|---|" + "---|" * len(ks))
    rows = measure_tables(reader, args.data, ks, args.seeds)
    for row in rows:
        print(_line(row, ks))
    print(f"\nphotos asked about, all {args.seeds} orders together: asked: " + " / ".join(ASKED_WHY) + " (a photo may be asked about for more than one)")
    print("| split (photos) | count | " + " | ".join(f"K = {k}" for k in ks) + " |")
    print("|---|---|" + "---|" * len(ks))
    for row in rows:
        print(_why_line(row, ks))
    used = {f"{row['source']} {row['group']} {'told' if row['told'] else 'blind'}".replace("  ", " "): {k: cell["head_used"] for k, cell in row["k"].items()} for row in rows}  # type: ignore[union-attr]
    print("orders in which the safety rule let the learned head read:", json.dumps(used))
    times = {} if args.no_times else measure_times(reader, args.data)
    if times:
        print(f"refit of a table of {times['table_dice']} dice, {times['judged_rolls']} rolls judged: median {times['refit_s_median']} s "
              f"(runs {times['refit_s_runs']}); a read of a byler photo: {times['read_ms_cold']} ms cold, {times['read_ms_learned']} ms with the head")
    if args.json:
        args.json.write_text(json.dumps({"machine": machine_name(), "seeds": args.seeds, "rows": rows, "times": times}, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
