"""The pip reader's embedding as a second output of its ONNX file: the values its last layer
scores (``embedding``, one row per crop), which a table's learned head reads
(``scorekeeper.vision.table_head``). Added to the exported file, fp32 or int8, without retraining.
Needs ``onnx`` (the train and test extras).
"""

from __future__ import annotations

from pathlib import Path

from scorekeeper.safe_output import write_atomically
from scorekeeper.training.manifest import read_manifest, update_manifest
from scorekeeper.vision.reader import EMBEDDING_OUTPUT, ModelError, sha256_of


def add_embedding_output(model_dir: Path) -> int:
    """Give the pip reader in ``model_dir`` its ``embedding`` output (the input of the one layer
    that makes its logits) and update the manifest; returns the embedding's width. A file that
    already has one is left as it is."""
    import onnx
    from onnx import helper, shape_inference

    manifest = read_manifest(model_dir)
    path = model_dir / manifest["pips"]["file"]
    model = shape_inference.infer_shapes(onnx.load(str(path)))
    graph = model.graph
    widths = {info.name: [d.dim_value for d in info.type.tensor_type.shape.dim] for info in [*graph.value_info, *graph.output]}
    if any(output.name == EMBEDDING_OUTPUT for output in graph.output):
        return int(widths[EMBEDDING_OUTPUT][1])
    head = [node for node in graph.node if node.op_type in ("Gemm", "MatMul")]
    if len(head) != 1:
        raise ModelError(f"the pip reader {path} has {len(head)} fully connected layers; its embedding is the input of the only one")
    source = head[0].input[0]
    dims = widths.get(source, [])
    if len(dims) != 2 or not dims[1]:
        raise ModelError(f"the pip reader {path}: the input of its last layer ({source}) is not one row of fixed width per crop")
    graph.node.append(helper.make_node("Identity", [source], [EMBEDDING_OUTPUT], name="embedding_output"))
    graph.output.append(helper.make_tensor_value_info(EMBEDDING_OUTPUT, onnx.TensorProto.FLOAT, ["dice", dims[1]]))
    onnx.checker.check_model(model)
    write_atomically(path, model.SerializeToString())
    update_manifest(model_dir, {"pips": {**manifest["pips"], "sha256": sha256_of(path)}})
    return int(dims[1])
