// warthog_wastar.cpp: weighted A* built on warthog-core's library, for
// bench/weighted_warthog.py.
//
// warthog (ShortestPathLab's C++ pathfinding library, public source, never part
// of this repository) has weighted A* in its library but not in its command-line
// program: its octile heuristic takes a scale (octile_heuristic::set_hscale), and
// unidirectional_search then orders its open list by f = g + w * h. This driver
// is warthog's own `warthog --alg astar` (apps/warthog.cpp: gridmap,
// gridmap_expansion_policy, octile_heuristic, pqueue_min, unidirectional_search
// with its default traits) with the heuristic scaled by --hscale, and prints the
// same tab-separated line per query (id alg expanded generated reopen surplus
// heapops nanos plen pcost scost map), nanos being warthog's own search timer,
// pcost its reported cost (sol.sum_of_edge_costs_, here with 12 digits where the
// app prints 6), plus one last column, walked (below).
// A very large --hscale (1e9) makes it a greedy best-first search ordered by h,
// ties to the smaller g.
//
// Its default traits, which this keeps: the search stops as soon as it generates
// the target (admissibility_criteria::any), and a closed node reached more
// cheaply has its g and parent lowered in place but is not expanded again
// (reopen_policy::no).
//
// walked: the returned path's cost, summed cell by cell, each step checked to be
// one of the 8 moves onto a traversable cell, a diagonal one with both cells it
// passes between traversable (the Moving AI rule); -1 when a step is illegal.
// With w > 1 it can be below pcost: the target's g is fixed when it is generated,
// and a closed node relaxed afterwards shortens the path its parents trace
// without lowering the g of the nodes below it.
//
// Built against warthog-core 0.5.0, commit f379ef257335bb8bb6645c6efaeef031763273ea
// (github.com/ShortestPathLab/warthog-core), with warthog's Release flags:
//
//   g++ -O3 -DNDEBUG -std=gnu++20 -I$WC/include -I$WB/include bench/warthog_wastar.cpp $WB/libwarthog_core.a -o warthog_wastar
//
// where WC is the warthog-core source tree and WB its CMake build directory
// (the one holding libwarthog_core.a and the generated include/warthog/config.h).
//
// Usage: warthog_wastar [--alg astar] --hscale W --scen FILE.scen --map FILE.map

#include <chrono> // search_parameters.h uses std::chrono without including it

#include <warthog/domain/gridmap.h>
#include <warthog/heuristic/octile_heuristic.h>
#include <warthog/search/gridmap_expansion_policy.h>
#include <warthog/search/search_parameters.h>
#include <warthog/search/solution.h>
#include <warthog/search/unidirectional_search.h>
#include <warthog/util/pqueue.h>
#include <warthog/util/scenario_manager.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <string>

namespace
{

// Whether unpadded (x, y) is inside the map and traversable.
bool
free_cell(const warthog::domain::gridmap& map, int32_t x, int32_t y)
{
	if(x < 0 || y < 0 || uint32_t(x) >= map.header_width()
	   || uint32_t(y) >= map.header_height())
	{
		return false;
	}
	return map.get_label(map.to_padded_id_from_unpadded(x, y)) != 0;
}

// The cost of the path walked step by step under the Moving AI rule (straight
// 1, diagonal sqrt 2, no corner cutting), or -1 when a step is not a legal move.
double
walk(
    const warthog::domain::gridmap& map,
    warthog::search::gridmap_expansion_policy& expander,
    const std::vector<warthog::pack_id>& path)
{
	double cost = 0;
	int32_t px = 0, py = 0;
	for(size_t i = 0; i < path.size(); i++)
	{
		int32_t x, y;
		expander.get_xy(path[i], x, y);
		if(!free_cell(map, x, y)) { return -1; }
		if(i > 0)
		{
			int32_t dx = x - px, dy = y - py;
			if(std::abs(dx) > 1 || std::abs(dy) > 1 || (dx == 0 && dy == 0))
			{
				return -1;
			}
			if(dx != 0 && dy != 0)
			{
				if(!free_cell(map, px + dx, py) || !free_cell(map, px, py + dy))
				{
					return -1;
				}
				cost += warthog::DBL_ROOT_TWO;
			}
			else { cost += 1; }
		}
		px = x;
		py = y;
	}
	return cost;
}

} // namespace

int
main(int argc, char** argv)
{
	double hscale = 1.0;
	std::string hscale_text = "1", scen, mapfile;
	for(int i = 1; i + 1 < argc; i += 2)
	{
		if(!std::strcmp(argv[i], "--hscale")) 
		{
			hscale_text = argv[i + 1];
			hscale      = std::atof(argv[i + 1]);
		}
		else if(!std::strcmp(argv[i], "--scen")) { scen = argv[i + 1]; }
		else if(!std::strcmp(argv[i], "--map")) { mapfile = argv[i + 1]; }
		else if(!std::strcmp(argv[i], "--alg") && !std::strcmp(argv[i + 1], "astar"))
		{ } // as warthog's program takes it (bench/jps_warthog.py's Warthog)
		else
		{
			std::cerr << "unknown option " << argv[i] << "\n";
			return 2;
		}
	}
	if(scen.empty() || mapfile.empty() || !(hscale >= 1.0))
	{
		std::cerr << "usage: warthog_wastar [--alg astar] --hscale W (>= 1) --scen FILE "
		             "--map FILE\n";
		return 2;
	}

	warthog::util::scenario_manager scenmgr;
	scenmgr.load_scenario(scen.c_str());
	warthog::domain::gridmap map(mapfile.c_str());
	warthog::search::gridmap_expansion_policy expander(&map);
	warthog::heuristic::octile_heuristic heuristic(map.width(), map.height());
	heuristic.set_hscale(hscale);
	warthog::util::pqueue_min open;
	warthog::search::unidirectional_search astar(&heuristic, &expander, &open);

	const std::string alg = "wastar-" + hscale_text;
	warthog::search::search_parameters par;
	warthog::search::solution sol;
	std::cout << std::setprecision(12); // the app prints 6 digits: too few to check costs
	std::cout << "id\talg\texpanded\tgenerated\treopen\tsurplus\theapops"
	          << "\tnanos\tplen\tpcost\tscost\tmap\twalked\n";
	for(uint32_t i = 0; i < scenmgr.num_experiments(); i++)
	{
		warthog::util::experiment* exp = scenmgr.get_experiment(i);
		warthog::search::problem_instance pi(
		    expander.get_pack(exp->startx(), exp->starty()),
		    expander.get_pack(exp->goalx(), exp->goaly()), false);
		sol.reset();
		astar.get_path(&pi, &par, &sol);

		std::cout << i << "\t" << alg << "\t" << sol.met_.nodes_expanded_ << "\t"
		          << sol.met_.nodes_generated_ << "\t" << sol.met_.nodes_reopen_
		          << "\t" << sol.met_.nodes_surplus_ << "\t" << sol.met_.heap_ops_
		          << "\t" << sol.met_.time_elapsed_nano_.count() << "\t"
		          << (sol.path_.size() - 1) << "\t" << sol.sum_of_edge_costs_
		          << "\t" << exp->distance() << "\t" << scenmgr.last_file_loaded()
		          << "\t" << walk(map, expander, sol.path_) << "\n";
	}
	return 0;
}
