"""A WGAN-GP critic step under paddle.DataParallel on CPU (gloo), through unigrad.

    python -m paddle.distributed.launch --nproc_per_node 2 \
        docs/recipes/paddle_dp_wgan_gp.py OUT_DIR

As the torch recipe: each rank takes its half of one global batch, the penalty's
gradient (with respect to the input) is rank-local, and `unigrad.backward(loss)` fills
the parameters' `.grad`, which DataParallel averages across ranks. Rank r saves its
penalty and gradients to OUT_DIR/rank{r}.npz; tests/test_data_parallel.py checks them
against one process on the whole batch.
"""

import sys
from pathlib import Path

import numpy as np
import paddle
import paddle.distributed as dist

import unigrad

BATCH, FEATURES, LAMBDA = 8, 3, 10.0


def make_critic():
    paddle.seed(0)
    paddle.set_default_dtype("float64")
    return paddle.nn.Sequential(
        paddle.nn.Linear(FEATURES, 16), paddle.nn.Tanh(), paddle.nn.Linear(16, 1)
    )


def global_batch():
    rng = np.random.default_rng(1)
    real = rng.normal(size=(BATCH, FEATURES))
    fake = rng.normal(size=(BATCH, FEATURES))
    alpha = rng.uniform(size=(BATCH, 1))
    return [paddle.to_tensor(a) for a in (real, fake, alpha)]


def critic_loss(critic, real, fake, alpha):
    x_hat = unigrad.watch(alpha * real + (1 - alpha) * fake)
    (g,) = unigrad.grad(critic(x_hat).sum(), x_hat, create_graph=True)
    penalty = ((paddle.linalg.norm(g, axis=1) - 1.0) ** 2).mean()
    return critic(fake).mean() - critic(real).mean() + LAMBDA * penalty, penalty


def main(out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)  # every rank: exist_ok makes it safe
    dist.init_parallel_env()
    rank, world = dist.get_rank(), dist.get_world_size()
    critic = paddle.DataParallel(make_critic())
    real, fake, alpha = (paddle.chunk(t, world)[rank] for t in global_batch())
    loss, penalty = critic_loss(critic, real, fake, alpha)
    unigrad.backward(loss)
    grads = {f"grad{i}": p.grad.numpy() for i, p in enumerate(critic.parameters())}
    np.savez(out_dir / f"rank{rank}.npz", penalty=penalty.numpy(), loss=loss.numpy(), **grads)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
