/* The cash report's charts: Apache ECharts (static/vendor/echarts-*), drawn as SVG.
 *
 * Each <div data-chart="ID"> names a <script type="application/json" id="ID"> written by the
 * server (cashdesk/charts.py): titles, axis and series names in the person's language, the
 * values, and each value's label already formatted. Colours come from the page's CSS
 * (--chart-text, --chart-grid, --chart-1, --chart-2), so the dark screen and the white
 * print each get readable text. No inline script: this file is the only code.
 */
(function () {
  "use strict";

  function css(el, name, fallback) {
    var value = getComputedStyle(el).getPropertyValue(name).trim();
    return value || fallback;
  }

  function option(spec, el) {
    var text = css(el, "--chart-text", "#eef3ef");
    var grid = css(el, "--chart-grid", "#3b4d43");
    var lang = document.documentElement.lang || "en";
    var ticks = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
    var categoryAxis = {
      type: "category",
      data: spec.categories,
      name: spec.category_axis,
      nameLocation: "middle",
      nameGap: spec.horizontal ? 0 : 28,
      nameTextStyle: { color: text, fontSize: 13 },
      axisLine: { lineStyle: { color: grid } },
      axisTick: { alignWithLabel: true, lineStyle: { color: grid } },
      axisLabel: { color: text, fontSize: 13, hideOverlap: true, interval: "auto" },
    };
    if (spec.horizontal) {
      categoryAxis.name = "";
      categoryAxis.inverse = true;
      categoryAxis.axisLabel.width = 120;
      categoryAxis.axisLabel.overflow = "truncate";
    }
    var valueAxis = {
      type: "value",
      name: spec.value_axis,
      nameLocation: "middle",
      nameGap: spec.horizontal ? 26 : 0,
      nameTextStyle: { color: text, fontSize: 13 },
      axisLine: { show: true, lineStyle: { color: grid } },
      // Ticks are whole numbers (the labels show no decimals): never 0, 0, 1, 1 for a
      // small range.
      minInterval: 1,
      splitLine: { lineStyle: { color: grid, opacity: 0.5 } },
      axisLabel: {
        color: text,
        fontSize: 12,
        hideOverlap: true,
        formatter: function (v) { return ticks.format(v).replace("-", "\u2212"); },
      },
    };
    if (!spec.horizontal) { valueAxis.name = ""; }
    var colours = [css(el, "--chart-1", "#3fb970"), css(el, "--chart-2", "#58a6ff")];
    return {
      animation: false,
      aria: { enabled: true, label: { description: spec.title + ". " + spec.description } },
      color: colours,
      textStyle: { color: text, fontFamily: getComputedStyle(el).fontFamily },
      legend: { top: 0, left: 0, textStyle: { color: text, fontSize: 13 }, itemGap: 20 },
      grid: { left: 8, right: 24, top: 36, bottom: spec.horizontal ? 36 : 40 },
      tooltip: {
        trigger: "axis",
        axisPointer: { type: "shadow" },
        // The tooltip is HTML: every text from the server (a table's name is typed by
        // people) is escaped; the marker is ECharts' own colour dot.
        formatter: function (items) {
          var esc = echarts.format.encodeHTML;
          var lines = [esc(items[0].name)];
          items.forEach(function (item) {
            lines.push(item.marker + esc(item.seriesName) + ": " +
              esc(spec.series[item.seriesIndex].labels[item.dataIndex]));
          });
          return lines.join("<br>");
        },
      },
      xAxis: spec.horizontal ? valueAxis : categoryAxis,
      yAxis: spec.horizontal ? categoryAxis : valueAxis,
      series: spec.series.map(function (s) {
        return {
          type: "bar",
          name: s.name,
          data: s.values.map(function (v) { return v === null ? null : Number(v); }),
          barMaxWidth: 28,
        };
      }),
    };
  }

  var charts = [];

  function draw(el) {
    var source = document.getElementById(el.dataset.chart);
    if (!source || typeof echarts === "undefined") { return; }
    var spec = JSON.parse(source.textContent);
    if (spec.horizontal) {
      // One bar row per table: the chart is as tall as its tables, no taller.
      el.style.height = (90 + 34 * Math.max(1, spec.categories.length)) + "px";
    }
    var chart = echarts.init(el, null, { renderer: "svg" });
    chart.setOption(option(spec, el));
    el.dataset.drawn = "true";
    charts.push(chart);
  }

  function start() {
    document.querySelectorAll("[data-chart]").forEach(draw);
    var pending = null;
    window.addEventListener("resize", function () {
      clearTimeout(pending);
      pending = setTimeout(function () {
        charts.forEach(function (c) { c.resize(); });
      }, 100);
    });
    window.addEventListener("beforeprint", function () {
      charts.forEach(function (c) { c.resize(); });
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
