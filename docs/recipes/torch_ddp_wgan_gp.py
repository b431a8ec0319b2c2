"""A WGAN-GP critic step under torch DistributedDataParallel, through unigrad.

Run on 2 CPU processes (gloo):

    torchrun --standalone --nproc-per-node 2 docs/recipes/torch_ddp_wgan_gp.py OUT_DIR

Each rank takes its half of one global batch. The gradient penalty differentiates the
critic with respect to its input (`unigrad.grad(..., create_graph=True)`, rank-local:
no parameter gradient, so no communication); `unigrad.backward(loss)` then fills the
parameters' `.grad`, and DDP averages them across ranks while it runs. Rank r saves its
penalty and gradients to OUT_DIR/rank{r}.pt; tests/test_data_parallel.py checks them
against one process on the whole batch.
"""

import sys
from pathlib import Path

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

import unigrad

BATCH, FEATURES, LAMBDA = 8, 3, 10.0


def make_critic() -> torch.nn.Module:
    torch.manual_seed(0)  # every rank starts from the same weights (DDP checks it)
    return torch.nn.Sequential(
        torch.nn.Linear(FEATURES, 16), torch.nn.Tanh(), torch.nn.Linear(16, 1)
    ).double()


def global_batch() -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(1)
    real = torch.randn(BATCH, FEATURES, generator=g, dtype=torch.float64)
    fake = torch.randn(BATCH, FEATURES, generator=g, dtype=torch.float64)
    alpha = torch.rand(BATCH, 1, generator=g, dtype=torch.float64)
    return real, fake, alpha


def critic_loss(critic, real, fake, alpha):
    """The WGAN-GP critic loss and its penalty term, from one forward pass over the
    real, fake and interpolated samples together."""
    x_hat = unigrad.watch(alpha * real + (1 - alpha) * fake)
    scores = critic(torch.cat([real, fake, x_hat]))
    s_real, s_fake, s_hat = scores.split(len(real))
    (g,) = unigrad.grad(s_hat.sum(), x_hat, create_graph=True)
    penalty = ((g.norm(dim=1) - 1.0) ** 2).mean()
    return s_fake.mean() - s_real.mean() + LAMBDA * penalty, penalty


def main(out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)  # every rank: exist_ok makes it safe
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    critic = DistributedDataParallel(make_critic())
    real, fake, alpha = (t.chunk(world)[rank] for t in global_batch())

    loss, penalty = critic_loss(critic, real, fake, alpha)
    unigrad.backward(loss)  # DDP all-reduces (averages) the parameter gradients here

    grads = [p.grad.clone() for p in critic.parameters()]
    torch.save(
        {"penalty": penalty.detach(), "loss": loss.detach(), "grads": grads},
        out_dir / f"rank{rank}.pt",
    )
    del loss, penalty, critic  # the graph and DDP's reducer go while gloo is alive
    dist.barrier()  # every rank done with its collectives before any tears down
    dist.destroy_process_group()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
